import StoreKitCore

/// Reruns a session's replayable effects beside the reducer, as the engine reads the session.
protocol EffectReplaying: AnyObject {
    /// An action an effect of the rerun set sent in the recording, read before it is replayed.
    func recordedSend(_ action: ActionEvent)
    /// The action the reducer just replayed: starts its runs and lets them go as far as the recording allows.
    func applied(_ action: ActionEvent)
    /// A recorded input of a run of the rerun set.
    func recorded(_ call: EffectCallEvent)
    /// The recorded end of a run of the rerun set.
    func recorded(_ end: EffectEndEvent)
    /// A gap: the runs started before it are no longer checked.
    func gap(_ gap: GapEvent)
    /// Ends every run; `reachedEnd` is false when replay stopped before the session's end. While that takes a
    /// while, `progress` is told now and then how far it is.
    /// - Returns: What the reruns found and what they covered.
    func finish(
        reachedEnd: Bool, progress: ((EffectRunsEnding) -> Void)?
    ) -> (divergences: [EffectDivergence], coverage: EffectCoverage)
}
