/// An effect that was still running when a wait for a store's effects ran out of time.
public struct RunningEffect: Sendable, Equatable, CustomStringConvertible {
    /// The effect's name (`Effect.name`).
    public var name: String
    /// The sequence number of the action whose handling started it.
    public var sequence: Int
    /// That action, compactly (``CompactDescription``).
    public var action: String

    /// Creates a description of a running effect.
    public init(name: String, sequence: Int, action: String) {
        self.name = name
        self.sequence = sequence
        self.action = action
    }

    /// `"timer" started by step 3 startTapped`.
    public var description: String {
        "\(name.debugDescription) started by step \(sequence) \(action)"
    }
}
