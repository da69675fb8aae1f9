import StoreKitCore

extension TestStore {
    /// What the in-flight effect controls need of a test store, which `TestStore.effectControl` gives: the store
    /// under test, the last step it applied, and where failures go.
    struct EffectControl {
        let store: Store<State, Action>
        let lastStep: Int
        let reportFailure: @Sendable (TestFailure) -> Void
    }

    /// Ends the effects still running (a timer, a long poll), so that ``finish(timeout:fileID:file:line:column:)``
    /// does not fail for them: cancels every one and waits, at most `timeout`, until they ended.
    ///
    /// Use it where the test is done with effects that never end by themselves; the effects of actions sent later
    /// run as usual. Actions the cancelled effects sent before still have to be received when the store is
    /// exhaustive. An effect that has not ended `timeout` after its cancellation is a failure naming it.
    /// ```swift
    /// await store.send(.path(.element(id: 1, action: .startTapped)))
    /// await clock.advance(by: .seconds(1))
    /// await store.receive(.path(.element(id: 1, action: .timerTick))) { $0.path[1]?.ticks = 1 }
    /// await store.cancelInFlightEffects()
    /// await store.finish()
    /// ```
    public func cancelInFlightEffects(
        timeout: Duration = .seconds(5),
        fileID: StaticString = #fileID, file: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        let site = TestFailure(message: "", fileID: fileID, filePath: file, line: line, column: column)
        _ = await endInFlightEffects(timeout: timeout, site: site)
    }

    /// Skips the effects still running, as The Composable Architecture's `skipInFlightEffects` does: cancels them
    /// (as ``cancelInFlightEffects(timeout:fileID:file:line:column:)`` does) for a test that knows some are running
    /// and does not assert what they would do.
    ///
    /// With `strict` (the default) it is a failure when no effect was running: the test expected one. With
    /// ``Exhaustivity/off(showSkippedAssertions:)`` showing skipped assertions, it notes the effects it skipped.
    public func skipInFlightEffects(
        strict: Bool = true, timeout: Duration = .seconds(5),
        fileID: StaticString = #fileID, file: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        let site = TestFailure(message: "", fileID: fileID, filePath: file, line: line, column: column)
        let skipped = await endInFlightEffects(timeout: timeout, site: site)
        if skipped.isEmpty {
            if strict { report("there were no effects running to skip", site) }
        } else if exhaustivity == .off(showSkippedAssertions: true) {
            let list = skipped.map(\.description).joined(separator: "; ")
            report("skipped \(skipped.count) effect\(skipped.count == 1 ? "" : "s") still running: \(list)", site, .note)
        }
    }

    /// Cancels every running effect, waits at most `timeout` for them to end (a failure names those that did not),
    /// and returns those that were running.
    private func endInFlightEffects(timeout: Duration, site: TestFailure) async -> [RunningEffect] {
        let ended = await effectControl.store.endRunningEffects(timeout: timeout)
        if let stillRunning = ended.stillRunning {
            report("cancelled the effects still running, but \(stillRunning)", site)
        }
        return ended.cancelled
    }

    /// Reports `message` about what happened after the last step, at the place `site` holds.
    private func report(_ message: String, _ site: TestFailure, _ severity: TestFailure.Severity = .failure) {
        let control = effectControl
        var failure = site
        failure.message = "after step \(control.lastStep): \(message)"
        failure.step = control.lastStep
        failure.severity = severity
        control.reportFailure(failure)
    }
}
