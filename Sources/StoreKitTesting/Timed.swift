/// A value at a virtual time: an action an ``EffectRunner`` dispatches then, or a state or action it saw then.
public struct Timed<Value> {
    /// The time since the test clock's start.
    public var time: Duration
    /// The value.
    public var value: Value

    /// `value` at `time`.
    public init(at time: Duration, _ value: Value) {
        self.time = time
        self.value = value
    }
}

extension Timed: Sendable where Value: Sendable {}
extension Timed: Equatable where Value: Equatable {}

extension Timed: CustomStringConvertible {
    /// `at 2.0 seconds: tick`.
    public var description: String { "at \(time): \(value)" }
}
