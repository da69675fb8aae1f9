/// The end of one effect run that took an input or sent an action: how it ended and what it did.
///
/// A run of a replayable effect that neither called nor sent has no line at all; replay holds it to that.
public struct EffectEndEvent: Sendable, Hashable {
    /// How a run ended.
    public enum Outcome: String, Sendable, Hashable, CaseIterable {
        /// The effect's work returned.
        case finished
        /// The run's task was cancelled (`Store.cancelEffects()`) and the work returned.
        case cancelled
    }

    /// The sequence number of the action that started the run.
    public var cause: Int
    /// The name of the effect.
    public var effect: String
    /// How the run ended.
    public var outcome: Outcome
    /// How many inputs the run took (its ``EffectCallEvent`` lines).
    public var calls: Int
    /// How many actions the run sent.
    public var sent: Int
    /// Seconds since the session started, when the run ended.
    public var time: Double

    /// Creates an effect end event.
    public init(cause: Int, effect: String, outcome: Outcome, calls: Int, sent: Int, time: Double) {
        self.cause = cause
        self.effect = effect
        self.outcome = outcome
        self.calls = calls
        self.sent = sent
        self.time = time
    }
}
