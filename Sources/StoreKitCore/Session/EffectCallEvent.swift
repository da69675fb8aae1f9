import StoreKitJSON

/// One input an effect run took from the outside world through its ``EffectContext``: the result of a named
/// ``EffectContext/call(_:isolation:_:)``, a reading or a sleep of its ``EffectContext/clock``, or a UUID or random
/// value it drew. Replay hands the same result back to the effect instead of running the call again.
///
/// A run is named by the action that started it (``cause``) and the effect's name (``effect``): the store starts each
/// effect once per action. ``index`` counts the run's inputs from 0, in the order the effect asked for them.
public struct EffectCallEvent: Sendable, Hashable {
    /// The sequence number of the action whose effect run made the call.
    public var cause: Int
    /// The name of the effect (``Effect/name``).
    public var effect: String
    /// The call's position among the run's inputs, from 0.
    public var index: Int
    /// The call's name: the one the effect gave, or a built-in input (``BuiltIn``), whose names start with `$`.
    public var name: String
    /// Seconds since the session started, when the call returned.
    public var time: Double
    /// What the effect passed to the call (``EffectContext/call(_:with:isolation:_:)``), canonically encoded.
    public var input: JSONValue?
    /// What the call gave back.
    public var result: EffectCallResult

    /// Creates a call event.
    public init(
        cause: Int, effect: String, index: Int, name: String, time: Double, input: JSONValue? = nil,
        result: EffectCallResult
    ) {
        self.cause = cause
        self.effect = effect
        self.index = index
        self.name = name
        self.time = time
        self.input = input
        self.result = result
    }

    /// The names of the inputs an ``EffectContext`` records by itself; an effect's own call names may not start
    /// with `$`.
    public enum BuiltIn: String, Sendable, CaseIterable {
        /// A reading of ``EffectContext/clock``'s `now`; the value is nanoseconds since the store was created.
        case clockNow = "$clock.now"
        /// A sleep on ``EffectContext/clock``; the input is `{"untilNanoseconds": …}`, the value `null`.
        case clockSleep = "$clock.sleep"
        /// A UUID drawn with ``EffectContext/uuid()``; the value is its string.
        case uuid = "$uuid"
        /// A random number drawn with ``EffectContext/random(in:)``; the value is the number.
        case random = "$random"
        /// A reading of ``EffectContext/state``; the value is how many steps after the run's cause the state read
        /// is (0: the state right after the cause).
        case state = "$state"
    }
}

/// What a recorded call gave back: a value, an error, or nothing because the effect was cancelled while it waited.
public enum EffectCallResult: Sendable, Hashable {
    /// The call returned this value, canonically encoded.
    case value(JSONValue)
    /// The call threw this error.
    case error(RecordedCallError)
    /// The call ended with a `CancellationError`: the work around it was cancelled.
    case cancelled
}

/// An error a recorded call threw, as the session keeps it; in replay the call throws it again.
///
/// An error type that is `Encodable` keeps its value too; the rest keep their type name and description, so code
/// that catches a specific error type (`catch let error as APIError`) sees a `RecordedCallError` in replay.
public struct RecordedCallError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The error's type name, such as `URLError`.
    public var type: String
    /// The error's description when it was thrown (`"\(error)"`).
    public var message: String
    /// The error itself, when its type is `Encodable`.
    public var value: JSONValue?

    /// Creates a recorded error.
    public init(type: String, message: String, value: JSONValue? = nil) {
        self.type = type
        self.message = message
        self.value = value
    }

    /// The error as it was described when thrown.
    public var description: String { message }
}
