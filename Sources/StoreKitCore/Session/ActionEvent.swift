import StoreKitJSON

/// One applied action and the state after it.
public struct ActionEvent: Sendable, Hashable {
    /// Where the action came from.
    public enum Origin: Sendable, Hashable {
        /// Dispatched by app code.
        case app
        /// Dispatched by an effect; `cause` is the sequence number of the action that started the effect, or `nil`
        /// when that action was dispatched before recording began.
        case effect(cause: Int?)
    }

    /// The action's sequence number in the session: 1, 2, 3 ... with no holes except those a ``GapEvent`` names.
    public var sequence: Int
    /// Seconds since the session started, from a monotonic clock.
    public var time: Double
    /// A short display name, such as `addTodo`.
    public var name: String
    /// The action as its own `Codable` JSON.
    public var action: JSONValue
    /// Where the action came from.
    public var origin: Origin
    /// The full state after the action, canonically encoded. For a line stored as a patch, the reader fills it
    /// in by applying ``patch`` to the previous state.
    public var state: JSONValue
    /// Set when the line stores the state as a patch against the previous line's state (a delta snapshot);
    /// `nil` for a full snapshot (a keyframe).
    public var patch: JSONPatch?
    /// The name of the effect that sent the action, when ``origin`` is an effect and the session is format 2.
    public var effect: String?

    /// Creates an action event.
    public init(
        sequence: Int, time: Double, name: String, action: JSONValue, origin: Origin, state: JSONValue,
        patch: JSONPatch? = nil, effect: String? = nil
    ) {
        self.effect = effect
        self.sequence = sequence
        self.time = time
        self.name = name
        self.action = action
        self.origin = origin
        self.state = state
        self.patch = patch
    }
}
