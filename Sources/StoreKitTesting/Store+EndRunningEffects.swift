import StoreKitCore

extension Store {
    /// What ``endRunningEffects(timeout:)`` did.
    struct EndedEffects {
        /// The effects that were running, now cancelled.
        var cancelled: [RunningEffect]
        /// The error naming those still running `timeout` after their cancellation, if any were.
        var stillRunning: EffectsStillRunning?
    }

    /// Cancels the effects running now and waits at most `timeout` for them to end.
    func endRunningEffects(timeout: Duration) async -> EndedEffects {
        var ended = EndedEffects(cancelled: [], stillRunning: nil)
        do {
            try await waitForEffects(timeout: .zero)
        } catch {
            ended.cancelled = error.running
        }
        cancelEffects()
        do {
            try await waitForEffects(timeout: timeout)
        } catch {
            ended.stillRunning = error
        }
        return ended
    }
}
