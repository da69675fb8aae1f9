import StoreKitJSON

/// Where a store's effect runs write the inputs they take and how they end: a recorder (``SessionRecorder`` is
/// one). The store finds its sinks among its interceptors.
package protocol EffectInputSink: Sendable {
    /// Takes one input an effect run took; called on the effect's task, before the call returns to the effect.
    func record(_ call: EffectCallRecord)
    /// Takes the end of a run of a replayable effect that took an input or sent an action.
    func record(_ end: EffectEndRecord)
}

/// One input an effect run took, as the store knows it (its cause is the store's sequence number).
package struct EffectCallRecord: Sendable {
    /// The store's sequence number of the action that started the run.
    package var cause: Int
    /// The effect's name.
    package var effect: String
    /// The call's position among the run's inputs, from 0.
    package var index: Int
    /// The call's name.
    package var name: String
    /// What the effect passed to the call.
    package var input: JSONValue?
    /// What the call gave back.
    package var result: EffectCallResult
    /// When the call returned, in nanoseconds since the store was created.
    package var uptimeNanoseconds: UInt64
}

/// The end of an effect run, as the store knows it.
package struct EffectEndRecord: Sendable {
    /// The store's sequence number of the action that started the run.
    package var cause: Int
    /// The effect's name.
    package var effect: String
    /// How the run ended.
    package var outcome: EffectEndEvent.Outcome
    /// How many inputs it took.
    package var calls: Int
    /// How many actions it sent.
    package var sent: Int
    /// When it ended, in nanoseconds since the store was created.
    package var uptimeNanoseconds: UInt64
}
