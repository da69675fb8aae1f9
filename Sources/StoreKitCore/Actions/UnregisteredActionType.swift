/// An action type that is not in the ``ActionRegistry`` of the ``RegisteredAction`` that met it: the underlying
/// error of the `DecodingError` a recorded action of that type throws, and what schema drift reads to advise
/// registering the type.
public struct UnregisteredActionType: Error, Sendable, Hashable, CustomStringConvertible {
    /// The type's name, as actions of it are recorded (`DidFetchTodos`).
    public var typeName: String
    /// The name of the registry it is missing from (`AppActions`).
    public var registry: String

    /// Names an action type missing from a registry.
    public init(typeName: String, registry: String) {
        self.typeName = typeName
        self.registry = registry
    }

    /// `the action type 'DidFetchTodos' is not registered in AppActions`.
    public var description: String {
        "the action type '\(typeName)' is not registered in \(registry)"
    }
}
