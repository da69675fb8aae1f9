import StoreKitCore
import StoreKitJSON

/// A place where a replayable effect, rerun against its recorded inputs, did something other than in the recording.
public struct EffectDivergence: Sendable, Equatable {
    /// The step it shows at: the recorded action's step for a sent action, else the last step read before the
    /// line (or the end) that showed it.
    public var step: Int
    /// The step of the action that started the run.
    public var cause: Int
    /// That action's display name.
    public var causeName: String
    /// That action as canonical JSON (the session's secret paths masked); `nil` when replay did not see it start
    /// (a run the recording has and the rerun never began).
    public var causeAction: JSONValue?
    /// The effect's name.
    public var effect: String
    /// What differs.
    public var kind: Kind

    /// Creates one.
    public init(step: Int, cause: Int, causeName: String, causeAction: JSONValue? = nil, effect: String, kind: Kind) {
        self.step = step
        self.cause = cause
        self.causeName = causeName
        self.causeAction = causeAction
        self.effect = effect
        self.kind = kind
    }

    /// What differs between the rerun and the recording.
    public enum Kind: Sendable, Equatable {
        /// The effect sent an action the recording does not have.
        case actionNotRecorded(sent: EffectAction)
        /// The recording has an action the effect did not send.
        case actionNotSent(recorded: EffectAction)
        /// The effect sent another action than the recorded one, or the same with another payload.
        case actionDiffers(recorded: EffectAction, sent: EffectAction, diff: StateDiff)
        /// The effect made a call (its `index`-th input, named `name`) that the recording does not have.
        case callNotRecorded(name: String, index: Int)
        /// The recording has a call the effect did not make.
        case callNotMade(name: String, index: Int)
        /// The effect's `index`-th input is another call than the recorded one (another name, or calls reordered).
        case callChanged(index: Int, recorded: String, made: String)
        /// The effect passed another input to a call than the recorded one.
        case callInputDiffers(name: String, index: Int, diff: StateDiff)
        /// The recorded result of a call does not decode as the type the effect asks for now.
        case callResultDoesNotDecode(name: String, index: Int, expected: String, message: String)
        /// One of a run's inputs was cancelled in the recording and not in the rerun, or the reverse.
        case cancellationChanged(name: String, index: Int, recordedCancelled: Bool)
        /// The run ended otherwise: it finished, was cancelled, or was still running at the end of the session.
        case outcomeChanged(recorded: EffectRunOutcome, replayed: EffectRunOutcome)
    }
}

/// An action an effect sent, as a divergence shows it.
public struct EffectAction: Sendable, Equatable {
    /// Its display name.
    public var name: String
    /// The action as canonical JSON (the session's secret paths masked).
    public var action: JSONValue
    /// Its step in the recording, for a recorded action.
    public var step: Int?

    /// Creates one.
    public init(name: String, action: JSONValue, step: Int? = nil) {
        self.name = name
        self.action = action
        self.step = step
    }
}

/// How an effect run ended.
public enum EffectRunOutcome: String, Sendable, Equatable {
    /// Its work returned.
    case finished
    /// Its task was cancelled and its work returned.
    case cancelled
    /// It was still running (waiting for an input) when the session ended.
    case runningAtEnd
}
