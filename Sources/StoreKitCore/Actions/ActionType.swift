/// One registered action type: the name its actions are recorded under, and how to encode and decode them.
///
/// An ``ActionTypes`` list makes one from each `Type.self` it holds, named by the type's own name
/// (`DidFetchTodos`). Make one yourself only to give a type another name, when two registered types share one
/// (`Todos.Load` and `Users.Load` are both `Load`):
/// ```swift
/// static let types = ActionTypes {
///     Todos.Load.self
///     ActionType(Users.Load.self, name: "UsersLoad")
/// }
/// ```
public struct ActionType: Sendable {
    /// The name actions of the type are recorded under: the key of their JSON object, and their display name.
    public let name: String
    /// The type.
    let type: Any.Type
    /// Writes a value of the type as `{"<name>": <value>}`.
    let encode: @Sendable (_ value: Any, _ encoder: any Encoder) throws -> Void
    /// Reads a value of the type from the member `key` of `container`.
    let decode:
        @Sendable (_ container: KeyedDecodingContainer<ActionTypeKey>, _ key: ActionTypeKey) throws -> any Sendable

    /// Registers `type` under `name`.
    /// - Parameters:
    ///   - type: A `Codable` action type.
    ///   - name: The name its actions are recorded under; by default the type's name without its module.
    public init<Action: Codable & Sendable>(_ type: Action.Type, name: String = String(describing: Action.self)) {
        self.name = name
        self.type = type
        self.encode = { value, encoder in
            var container = encoder.container(keyedBy: ActionTypeKey.self)
            // The registry looks an entry up by the value's own type, so the cast holds.
            try container.encode(value as! Action, forKey: ActionTypeKey(name))
        }
        self.decode = { container, key in try container.decode(Action.self, forKey: key) }
    }
}

/// The one key of an encoded ``RegisteredAction``: its type's registered name.
struct ActionTypeKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) {
        self.stringValue = name
    }

    init?(stringValue: String) {
        self.stringValue = stringValue
    }

    init?(intValue: Int) {
        nil
    }
}
