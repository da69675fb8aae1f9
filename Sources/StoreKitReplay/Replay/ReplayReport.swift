import StoreKitCore
import StoreKitJSON

/// What replaying one session found.
public struct ReplayReport: Sendable, Equatable {
    /// The session's header.
    public var header: SessionHeader
    /// The overall verdict.
    public var verdict: ReplayVerdict
    /// Every divergence found; only the first unless the engine was asked to keep going.
    public var divergences: [Divergence]
    /// The gaps the session has, including sequence numbers missing without a gap line.
    public var gaps: [GapEvent]
    /// How many action lines the session holds.
    public var actionCount: Int
    /// How many actions were rerun through the reducer.
    public var stepsReplayed: Int
    /// How many replayed states were compared and found equal to the recorded ones.
    public var stepsMatched: Int
    /// The session's `end` line, or `nil` when the recording was cut off before it.
    public var end: EndEvent?
    /// The replayed state after the last step replayed, canonically encoded, when replay got that far.
    public var finalState: JSONValue?
    /// The patterns of the places whose values did not count (``ReplayEngine/Options/ignoring``), as written.
    public var ignoring: [String] = []
    /// For each pattern that covered differing values: how often and where first, so a report says what it ignored.
    public var ignored: [IgnoredPattern] = []
    /// Every place a rerun effect did otherwise than in the recording, by step (each run's first).
    public var effectDivergences: [EffectDivergence] = []
    /// What was compared of the session's effects, and what was not.
    public var effects = EffectCoverage()
    /// The steps replayed from the actions a gap kept and checked by the comparison at the next recorded state: the
    /// session holds their actions but not the states after them. Such a gap leaves the session whole: it is not
    /// one of the verdict's ``ReplayVerdict/incomplete(gaps:)``. Kept actions with no recorded state after them
    /// (at the session's end, or before a gap that keeps nothing) are replayed but checked by nothing, so their gaps
    /// count as incomplete.
    public var stepsWithoutStates: [ClosedRange<Int>] = []
    /// How many actions the session's gaps kept without the states after them: the session holds these beside its
    /// ``actionCount`` action lines.
    public var actionsKeptWithoutStates = 0
    /// The step of the last action replayed through the reducers, if any: with ``ReplayEngine/Options/lastStep``,
    /// that step once replay reached it, including a step whose action a gap kept without its state.
    public var lastStepReplayed: Int?

    /// True when the verdict is ``ReplayVerdict/match``.
    public var isMatch: Bool { verdict == .match }

    /// How many steps the session covers: its last sequence number, whether an action or a gap covers it. Steps are
    /// numbered by sequence number, so a session with gaps has more steps than ``actionCount``.
    public var stepCount: Int { gaps.reduce(actionCount) { $0 + $1.count } }

    /// The step of the session's last action: ``stepCount`` less the gaps that end the session; 0 when no action
    /// comes before them.
    public var lastActionStep: Int {
        gaps.reversed().reduce(stepCount) { last, gap in gap.lastSequence == last ? gap.firstSequence - 1 : last }
    }

    /// The gaps replay could not check: those without kept actions (or none it could start from), and those no
    /// recorded state follows.
    public var unreplayedGaps: [GapEvent] {
        gaps.filter { gap in
            !stepsWithoutStates.contains { $0.contains(gap.firstSequence) && $0.contains(gap.lastSequence) }
        }
    }

    /// The gap that covers `step`, if one does: the session holds no state for such a step.
    public func gap(covering step: Int) -> GapEvent? {
        gaps.first { $0.firstSequence <= step && step <= $0.lastSequence }
    }
}

/// The verdict of a replay, from best to worst news.
public enum ReplayVerdict: Sendable, Equatable {
    /// Every replayed state equals the recorded one.
    case match
    /// The replayed state differs from the recorded one; the first divergence.
    case diverged(Divergence)
    /// A rerun effect did otherwise than in the recording (it sent another action, made another call, ended
    /// otherwise), before any state diverged; the first such place.
    case effectDiverged(EffectDivergence)
    /// No divergence where the session could be checked, but it has gaps, so parts of it could not be.
    case incomplete(gaps: [GapEvent])
    /// A recorded action or state no longer decodes under the current types.
    case undecodable(Undecodable)
    /// No replayable store has the session's store id.
    case unknownStore(storeID: String, knownStores: [String])

    /// A one-word name for the verdict: `match`, `diverged`, `effectDiverged`, `incomplete`, `undecodable` or
    /// `unknownStore`.
    public var name: String {
        switch self {
        case .match: "match"
        case .diverged: "diverged"
        case .effectDiverged: "effectDiverged"
        case .incomplete: "incomplete"
        case .undecodable: "undecodable"
        case .unknownStore: "unknownStore"
        }
    }
}

/// A step where the replayed state differs from the recorded one.
public struct Divergence: Sendable, Equatable {
    /// The step (the action's sequence number).
    public var step: Int
    /// The action's display name.
    public var actionName: String
    /// The action as recorded.
    public var action: JSONValue
    /// Where the action came from.
    public var origin: ActionEvent.Origin
    /// Seconds since the session started when the action was dispatched.
    public var time: Double
    /// The state the session recorded after the action (as the store's migration makes it, when the session is of
    /// another schema version).
    public var recorded: JSONValue
    /// The state the current reducer produced, holding the recorded values at the ignored places, if any.
    public var replayed: JSONValue
    /// The structural difference, from recorded to replayed.
    public var diff: StateDiff
    /// The actions just before this one, oldest first, that an explanation shows as context (see
    /// ``ReplayReport/attachPrecedingActions(_:from:)``); empty unless asked for.
    public var precedingActions: [PrecedingAction] = []
    /// The differences at ignored places, which ``diff`` leaves out: ``replayed`` holds the recorded values there.
    public var ignored: [IgnoredDifferences] = []
    /// Set when the states were compared as JSON rather than with the state type's `==`, and why: the replayed
    /// state with the recorded values at its ignored places does not decode.
    public var comparedAsJSON: String?
    /// The steps just before this one that were replayed from a gap's kept actions, without recorded states, since
    /// the last state compared: the difference may have begun at any of them, not only at ``step``.
    public var unrecordedSteps: ClosedRange<Int>?
}

/// A pattern of ignored places that covered differing values during a replay.
public struct IgnoredPattern: Sendable, Equatable {
    /// The pattern as written.
    public var pattern: String
    /// How many steps had differing values there.
    public var steps: Int
    /// The first such step.
    public var firstStep: Int
    /// The first differing place.
    public var firstPath: JSONPath

    /// Creates one.
    public init(pattern: String, steps: Int, firstStep: Int, firstPath: JSONPath) {
        self.pattern = pattern
        self.steps = steps
        self.firstStep = firstStep
        self.firstPath = firstPath
    }
}

/// An action shown as context before a divergence: what led up to it.
public struct PrecedingAction: Sendable, Equatable {
    /// The step (the action's sequence number).
    public var step: Int
    /// The action's display name.
    public var name: String
    /// The action as recorded.
    public var action: JSONValue

    /// Creates one.
    public init(step: Int, name: String, action: JSONValue) {
        self.step = step
        self.name = name
        self.action = action
    }
}

/// A recorded value that the current types cannot decode: schema drift.
public struct Undecodable: Sendable, Equatable {
    /// Which part of the session failed.
    public enum Part: String, Sendable, Equatable {
        /// The header's initial state.
        case initialState
        /// A recorded action.
        case action
        /// A recorded state after an action.
        case recordedState
        /// The replayed state could not be encoded (for example a NaN).
        case replayedState
    }

    /// The step (0 for the initial state).
    public var step: Int
    /// The action's display name, when the failure is at an action.
    public var actionName: String?
    /// Which part failed.
    public var part: Part
    /// The JSON path inside that part, such as `todos[2].title`.
    public var path: String
    /// What the decoder said.
    public var message: String
}
