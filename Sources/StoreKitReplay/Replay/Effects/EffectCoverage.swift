/// What a replay compared of the session's effects, and what it could not, so a verdict never claims more than was
/// checked.
public struct EffectCoverage: Sendable, Equatable {
    /// Effect runs rerun against their recorded inputs.
    public var runsReplayed = 0
    /// Recorded inputs handed back to rerun effects.
    public var inputsFed = 0
    /// Recorded effect actions compared with the actions the rerun effects sent.
    public var actionsCompared = 0
    /// Of those, the ones equal.
    public var actionsEqual = 0
    /// What was not checked, by reason.
    public var notChecked: [EffectsNotChecked] = []

    /// Creates an empty coverage.
    public init() {}

    /// True when nothing was replayed, compared or left unchecked: the session and the host have no effects to
    /// speak of.
    public var isEmpty: Bool { self == EffectCoverage() }

    /// Counts `actions` effect actions of `effect` as not checked for `reason`.
    mutating func skip(_ reason: EffectsNotChecked.Reason, effect: String?, actions: Int) {
        skip(EffectsNotChecked(reason: reason, effects: effect.map { [$0] } ?? [], actions: actions))
    }

    /// Adds `skipped` to what was not checked.
    private mutating func skip(_ skipped: EffectsNotChecked) {
        guard let index = notChecked.firstIndex(where: { $0.reason == skipped.reason }) else {
            notChecked.append(skipped)
            return
        }
        for effect in skipped.effects where !notChecked[index].effects.contains(effect) {
            notChecked[index].effects.append(effect)
        }
        notChecked[index].actions += skipped.actions
    }

    /// Adds what `other` covered and left unchecked.
    mutating func add(_ other: EffectCoverage) {
        runsReplayed += other.runsReplayed
        inputsFed += other.inputsFed
        actionsCompared += other.actionsCompared
        actionsEqual += other.actionsEqual
        for skipped in other.notChecked { skip(skipped) }
    }
}

/// Effects a replay did not check, and why.
public struct EffectsNotChecked: Sendable, Equatable {
    /// Why effects were not checked.
    public enum Reason: String, Sendable, Equatable, CaseIterable {
        /// The session records no effect inputs (format 1).
        case formatOne
        /// The effect is not replayable (`replay: .skipped`, the default) in the recording app.
        case notReplayable
        /// The session's header lists the effect as replayable, but the replay host's store has no such effect.
        case notInHost
        /// A gap lost lines of the run, or its cause came before the gap.
        case gap
        /// The action that started the run came before the recording did.
        case startedBeforeRecording
        /// The run waited on something outside its context (a task or actor of its own) and never came back.
        case reachedOutside
        /// The session ended while the run was in flight, so what it did after its last recorded line is unknown.
        case inFlightAtEnd
        /// Replay stopped (at a divergence or an undecodable step) before the effect's action.
        case replayStopped
        /// This runtime cannot rerun effects (it lacks task executors: before macOS 15 and iOS 18).
        case runtimeUnsupported

        /// What the unchecked actions were, for a report line that starts with how many: "12 effect actions …".
        public var phrase: String {
            switch self {
            case .formatOne: "from a session that records no effect inputs (format 1)"
            case .notReplayable: "from effects not marked replayable"
            case .notInHost: "from effects the replay host does not have"
            case .gap: "of runs a gap cut"
            case .startedBeforeRecording: "of runs started before the recording"
            case .reachedOutside: "of runs that reached outside their context"
            case .inFlightAtEnd: "of runs in flight when the session ended"
            case .replayStopped: "after replay stopped"
            case .runtimeUnsupported: "on a runtime that cannot rerun effects"
            }
        }
    }

    /// Why.
    public var reason: Reason
    /// The effects concerned, by name, in the order met; empty when the session does not name them.
    public var effects: [String]
    /// How many recorded effect actions went unchecked for this reason.
    public var actions: Int

    /// Creates one.
    public init(reason: Reason, effects: [String], actions: Int) {
        self.reason = reason
        self.effects = effects
        self.actions = actions
    }
}
