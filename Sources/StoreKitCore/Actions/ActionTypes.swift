/// The action types an ``ActionRegistry`` lists, written one per line:
/// ```swift
/// static let types = ActionTypes {
///     FetchTodos.self
///     DidFetchTodos.self
///     AddTodo.self
/// }
/// ```
/// Each is looked up by its type when a ``RegisteredAction`` is encoded, and by its recorded name when one is
/// decoded.
///
/// > Warning: Two types registered under one name are a programmer error: a debug build stops when the list is first
/// > used, naming both; a release build keeps the first, so actions of the second are not recorded (each becomes a
/// > `gap` of reason `encodingFailed`). Give one of them another name with ``ActionType/init(_:name:)``.
public struct ActionTypes: Sendable {
    /// The registered types, in the order listed.
    public let all: [ActionType]
    private let byName: [String: ActionType]
    private let byType: [ObjectIdentifier: ActionType]

    /// Lists the registered types.
    /// - Parameter types: One `Type.self` (or ``ActionType``) per line; `if`, `#if` and `for` work as in any
    ///   result builder.
    public init(@Builder _ types: () -> [ActionType]) {
        let all = types()
        var byName: [String: ActionType] = [:]
        var byType: [ObjectIdentifier: ActionType] = [:]
        for type in all where byName[type.name] == nil {
            byName[type.name] = type
            byType[ObjectIdentifier(type.type)] = type
        }
        self.all = all
        self.byName = byName
        self.byType = byType
        assert(Self.sharedNames(in: all) == nil, Self.sharedNames(in: all) ?? "")
    }

    /// The registered names, in the order listed.
    public var names: [String] { all.map(\.name) }

    /// The entry for values of `type`, or `nil` when it is not registered.
    func entry(for type: Any.Type) -> ActionType? {
        byType[ObjectIdentifier(type)]
    }

    /// The entry for actions recorded as `name`, or `nil` when none is registered under it.
    func entry(named name: String) -> ActionType? {
        byName[name]
    }

    /// What is wrong when types of `list` share a name, naming them; `nil` when every name is its type's own.
    package static func sharedNames(in list: [ActionType]) -> String? {
        let groups = Dictionary(grouping: list, by: \.name).filter { $0.value.count > 1 }
        guard !groups.isEmpty else { return nil }
        let shared = groups.keys.sorted().map { name in
            let types = groups[name]!.map { String(reflecting: $0.type) }.joined(separator: " and ")
            return "'\(name)' names \(types)"
        }
        return "registered action types share a name (\(shared.joined(separator: "; "))): give all but one another "
            + "with ActionType(_:name:), since a session records an action under its type's name"
    }

    /// Builds the list of ``ActionTypes`` from one `Type.self` per line.
    @resultBuilder
    public enum Builder {
        /// Registers a `Codable` action type under its own name.
        public static func buildExpression<Action: Codable & Sendable>(_ type: Action.Type) -> [ActionType] {
            [ActionType(type)]
        }

        /// Registers an action type under the name it is given.
        public static func buildExpression(_ type: ActionType) -> [ActionType] {
            [type]
        }

        /// The lines in order.
        public static func buildBlock(_ lines: [ActionType]...) -> [ActionType] {
            lines.flatMap { $0 }
        }

        /// The lines of an `if` without `else`, when it holds.
        public static func buildOptional(_ lines: [ActionType]?) -> [ActionType] {
            lines ?? []
        }

        /// The lines of an `if`'s first branch.
        public static func buildEither(first lines: [ActionType]) -> [ActionType] {
            lines
        }

        /// The lines of an `if`'s `else` branch.
        public static func buildEither(second lines: [ActionType]) -> [ActionType] {
            lines
        }

        /// The lines of a `for` loop.
        public static func buildArray(_ lines: [[ActionType]]) -> [ActionType] {
            lines.flatMap { $0 }
        }
    }
}
