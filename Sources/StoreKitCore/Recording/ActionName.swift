/// Derives an action's display name: the enum case's name, or the type's name for other actions.
enum ActionName {
    /// `addTodo` for `.addTodo(title: "Milk")` or `.addTodo`; `SaveAction` for a struct `SaveAction`.
    static func of<Action>(_ action: Action) -> String {
        let mirror = Mirror(reflecting: action)
        guard mirror.displayStyle == .enum else { return String(describing: Action.self) }
        if let label = mirror.children.first?.label { return label }
        // A case without a payload describes itself by its name.
        return String(describing: action)
    }
}
