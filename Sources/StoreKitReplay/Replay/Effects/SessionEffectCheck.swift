import StoreKitCore

/// What a replay checks of a session's effects: the runs of the effects it reruns, through an ``EffectReplaying``;
/// and, for every other action an effect sent, why it is not checked.
struct SessionEffectCheck {
    private let header: SessionHeader
    private let hostEffects: Set<String>
    private let replaying: (any EffectReplaying)?
    private var coverage = EffectCoverage()

    /// The check of the session with `header`, replayed by a host whose store reruns `hostEffects` through
    /// `replaying` (`nil` when none of them is in the session, or the runtime cannot rerun effects).
    init(header: SessionHeader, hostEffects: [String], replaying: (any EffectReplaying)?) {
        self.header = header
        self.hostEffects = Set(hostEffects)
        self.replaying = replaying
    }

    /// Reads a recorded action before it is replayed: an effect's action goes to its run, or is counted as not
    /// checked.
    mutating func recordedSend(_ action: ActionEvent) {
        guard case .effect(let cause) = action.origin else { return }
        guard header.formatVersion >= 2 else {
            coverage.skip(.formatOne, effect: nil, actions: 1)
            return
        }
        guard let effect = action.effect, header.effects.contains(effect) else {
            coverage.skip(.notReplayable, effect: action.effect, actions: 1)
            return
        }
        guard hostEffects.contains(effect) else {
            coverage.skip(.notInHost, effect: effect, actions: 1)
            return
        }
        guard cause != nil else {
            coverage.skip(.startedBeforeRecording, effect: effect, actions: 1)
            return
        }
        guard let replaying else {
            coverage.skip(.runtimeUnsupported, effect: effect, actions: 1)
            return
        }
        replaying.recordedSend(action)
    }

    /// The action the reducer just replayed.
    func applied(_ action: ActionEvent) { replaying?.applied(action) }

    /// A recorded input an effect run took.
    func recorded(_ call: EffectCallEvent) { replaying?.recorded(call) }

    /// The recorded end of an effect run.
    func recorded(_ end: EffectEndEvent) { replaying?.recorded(end) }

    /// A gap in the session: the runs started before it are no longer checked.
    func gap(_ gap: GapEvent) { replaying?.gap(gap) }

    /// Ends the reruns, telling `progress` now and then how far that is.
    /// - Returns: What they found, and what was and was not checked.
    func finish(
        reachedEnd: Bool, progress: ((EffectRunsEnding) -> Void)?
    ) -> (divergences: [EffectDivergence], coverage: EffectCoverage) {
        var (divergences, covered) = replaying?.finish(reachedEnd: reachedEnd, progress: progress) ?? ([], EffectCoverage())
        covered.add(coverage)
        return (divergences, covered)
    }
}
