import StoreKitJSON

/// An action that is a value of any one of the separate action types a registry lists: the store's action type for
/// apps in the Fluxor and ReSwift style, whose actions are many structs rather than one enum.
///
/// ```swift
/// struct AddTodo: Codable { var title: String }
/// struct DidFetchTodos: Codable { var todos: [String] }
///
/// enum AppActions: ActionRegistry {
///     static let types = ActionTypes {
///         AddTodo.self
///         DidFetchTodos.self
///     }
/// }
/// typealias AppAction = RegisteredAction<AppActions>
///
/// let reducer = Reducer<AppState, AppAction> { state, action in
///     switch action.value {
///     case let add as AddTodo: state.todos.append(add.title)
///     case let fetched as DidFetchTodos: state.todos = fetched.todos
///     default: break
///     }
/// }
/// let store = Store(initialState: AppState(), reducer: reducer)
/// store.dispatch(AddTodo(title: "Milk"))   // no wrapping by hand
/// ```
///
/// It is encoded as an object whose one key is the value's registered name: `{"AddTodo":{"title":"Milk"}}`; a
/// recorder names the action by it (`AddTodo`), or by its case path when the registered type is an enum.
/// Two actions are equal when their values are of the same type and equal: by the type's `==` when it is
/// `Equatable`, else by their canonical JSON.
///
/// > Warning: Register every type a store dispatches. A value of an unregistered type stops a debug build when it
/// > is wrapped (at its first dispatch), with a message naming the type and the registry. A release build goes on:
/// > the reducer gets the action, and the recorder, which cannot encode it, records a `gap` of reason
/// > `encodingFailed` in its place.
public struct RegisteredAction<Registry: ActionRegistry>: Codable, Sendable, Equatable, CustomStringConvertible {
    /// The wrapped action: switch on it (`case let add as AddTodo:`) or ask for one type with ``as(_:)``.
    public let value: any Sendable

    /// Wraps `action`; an action that is already a `RegisteredAction` of this registry is taken as it is.
    ///
    /// > Warning: In a debug build, a type the registry does not list stops the program here, naming it.
    public init<Action: Codable & Sendable>(_ action: Action) {
        if let boxed = action as? Self {
            self = boxed
            return
        }
        assert(
            Self.unregisteredTypeMessage(type(of: action)) == nil, Self.unregisteredTypeMessage(type(of: action)) ?? "")
        self.value = action
    }

    /// Wraps `action` without checking that its type is registered, as a release build does.
    package init(unchecked action: any Sendable) {
        self.value = action
    }

    /// The wrapped action when it is of type `type`, else `nil`: `if let add = action.as(AddTodo.self) { … }`.
    public func `as`<Action>(_ type: Action.Type) -> Action? {
        value as? Action
    }

    /// Whether the wrapped action is of type `type`.
    public func `is`<Action>(_ type: Action.Type) -> Bool {
        value is Action
    }

    /// The name the wrapped action is recorded under, when its type is registered.
    var registeredName: String? {
        Registry.types.entry(for: type(of: value))?.name
    }

    /// Why a debug build stops when it wraps a value of `type`, naming it and the registry; `nil` when `type` is
    /// registered.
    package static func unregisteredTypeMessage(_ type: Any.Type) -> String? {
        guard Registry.types.entry(for: type) == nil else { return nil }
        let unregistered = UnregisteredActionType(typeName: String(describing: type), registry: registryName)
        return "\(unregistered): add `\(String(describing: type)).self` to \(registryName).types, "
            + "or it cannot be recorded or replayed"
    }

    /// The registry's name, as messages show it.
    static var registryName: String { String(describing: Registry.self) }

    /// Writes `{"<registered name>": <value>}`.
    /// - Throws: `EncodingError.invalidValue` naming the value's type when the registry does not list it.
    public func encode(to encoder: any Encoder) throws {
        guard let entry = Registry.types.entry(for: type(of: value)) else {
            let unregistered = UnregisteredActionType(
                typeName: String(describing: type(of: value)), registry: Self.registryName)
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: encoder.codingPath, debugDescription: "\(unregistered)"))
        }
        try entry.encode(value, encoder)
    }

    /// Reads `{"<registered name>": <value>}`.
    /// - Throws: `DecodingError.dataCorrupted` when the object does not have exactly one key, or when its key names
    ///   no registered type (its underlying error is then an ``UnregisteredActionType``); the type's own decoding
    ///   errors.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: ActionTypeKey.self)
        let keys = container.allKeys
        guard keys.count == 1, let key = keys.first else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription: "a registered action is an object with one key, its type's name, "
                        + "but this one has \(keys.count) keys"))
        }
        guard let entry = Registry.types.entry(named: key.stringValue) else {
            let unregistered = UnregisteredActionType(typeName: key.stringValue, registry: Self.registryName)
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath, debugDescription: "\(unregistered)", underlyingError: unregistered))
        }
        self.value = try entry.decode(container, key)
    }

    /// Whether both wrap values of the same type that are equal: by `==` when the type is `Equatable`, else by
    /// their canonical JSON (values that do not encode are unequal).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        guard type(of: lhs.value) == type(of: rhs.value) else { return false }
        if let equatable = lhs.value as? any Equatable { return equatable.isEqual(to: rhs.value) }
        let encoder = CanonicalJSONEncoder()
        do {
            return try encoder.encodeToBytes(lhs) == encoder.encodeToBytes(rhs)
        } catch {
            return false
        }
    }

    /// The wrapped action as Swift source writes it: `AddTodo(title: "Milk")`.
    public var description: String {
        CompactDescription(value).description
    }
}

extension RegisteredAction: ActionBox {
    var boxedAction: Any { value }
    /// A struct's registered name; `nil` for an enum, which is named by its case path.
    var boxedActionName: String? {
        Mirror(reflecting: value).displayStyle == .enum ? nil : registeredName
    }
}

extension Equatable {
    /// Whether `other` is a value of this type equal to this one.
    fileprivate func isEqual(to other: Any) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}
