import StoreKitJSON

/// What answers an effect run's inputs in replay: the recorded results, handed back at the point of the recording
/// where they were taken.
package protocol EffectInputSource: Sendable {
    /// The recorded result of `request`; waits until replay reaches it. Called on the effect's task.
    func result(of request: EffectInputRequest) async -> EffectCallResult
    /// The recorded result of `request`, an input an effect takes without suspending (a clock reading, a UUID);
    /// may block the calling thread until replay reaches it.
    func resultNow(of request: EffectInputRequest) -> EffectCallResult
    /// Reports that the recorded value of `request` does not decode as the type the effect asks for now.
    func resultDoesNotDecode(_ request: EffectInputRequest, expected: String, error: any Error)
}

/// One input an effect run asks for in replay.
package struct EffectInputRequest: Sendable, Hashable {
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
}
