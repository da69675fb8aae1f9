import StoreKitReplay

/// A failed golden replay assertion; its description says what differs, as a test failure should.
public struct GoldenReplayError: Error, Sendable, CustomStringConvertible {
    /// The full explanation: the verdict, the step, the action and the -/+ state diff.
    public var description: String

    /// Creates an error with its explanation.
    public init(_ description: String) {
        self.description = description
    }
}
