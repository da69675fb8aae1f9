/// Derives an action's display name: the path of enum cases down through nested actions, or the type's name for
/// an action that is not an enum.
///
/// A feature's action often wraps a child feature's action (`.path(.element(id: 1, action: .rehearse(.timerTick)))`
/// in the TCA and Fluxor style); its name is then every case on the way down, joined by dots:
/// `path.element.rehearse.timerTick`. A case's payload is followed when it is itself an action:
/// - an enum whose type's name ends in `Action` (`Rehearsal.Action`, `StackAction<State, Action>`, generic
///   arguments aside), or a ``RegisteredAction``;
/// - in a payload of several values, the one labelled `action` when it is such an action, else the one value that
///   is.
///
/// Other payloads are values, not actions, and end the name: `.setFilter(.active)` is `setFilter` (`Filter` is not
/// an action type), `.addTodo(title: "Milk")` is `addTodo`.
///
/// A ``RegisteredAction`` is named by the action it wraps: a struct by the name its type is registered under (its
/// type's name, `DidFetchTodos`), an enum by its case path. A ``RegisteredAction`` in a case's payload is followed
/// the same way.
///
/// ```swift
/// ActionName.of(AppAction.path(.element(id: 1, action: .rehearse(.timerTick))))  // "path.element.rehearse.timerTick"
/// ActionName.of(TodoAction.addTodo(title: "Milk"))                               // "addTodo"
/// ActionName.of(SaveAction(id: 3))                                               // "SaveAction"
/// ActionName.of(RegisteredAction<AppActions>(DidFetchTodos(todos: [])))           // "DidFetchTodos"
/// ```
///
/// This is the name a ``SessionRecorder`` records unless its configuration names actions itself
/// (``SessionRecorder/Configuration/actionName``).
public enum ActionName {
    /// The display name of `action`: its case path (`path.element.rehearse.timerTick`), or its type's name when it
    /// is not an enum (`SaveAction`).
    /// - Parameter action: Any action value.
    /// - Returns: The case names from the outermost down to the last nested action's case, joined by `.`.
    public static func of<Action>(_ action: Action) -> String {
        var names: [String] = []
        var current: Any = action
        while true {
            if let box = current as? any ActionBox {
                if let name = box.boxedActionName {
                    names.append(name)
                    break
                }
                current = box.boxedAction
            }
            guard Mirror(reflecting: current).displayStyle == .enum else {
                names.append(String(describing: type(of: current)))
                break
            }
            guard let (name, payload) = caseAndPayload(of: current) else {
                // A case without a payload describes itself by its name.
                names.append(String(describing: current))
                break
            }
            names.append(name)
            guard let payload, let nested = nestedAction(in: payload) else { break }
            current = nested
        }
        return names.joined(separator: ".")
    }

    /// The case's name and its payload, or `nil` for a case without a payload.
    private static func caseAndPayload(of value: Any) -> (name: String, payload: Any?)? {
        guard let child = Mirror(reflecting: value).children.first, let label = child.label else { return nil }
        return (label, child.value)
    }

    /// The action a payload is or holds: the payload itself when it is an action enum or a box; in a tuple, the
    /// element labelled `action` when it is one, else the only element that is one; otherwise `nil` (a value).
    private static func nestedAction(in payload: Any) -> Any? {
        if isAction(payload) { return payload }
        let mirror = Mirror(reflecting: payload)
        guard mirror.displayStyle == .tuple else { return nil }
        if let labelled = mirror.children.first(where: { $0.label == "action" }), isAction(labelled.value) {
            return labelled.value
        }
        let actions = mirror.children.filter { isAction($0.value) }
        return actions.count == 1 ? actions[0].value : nil
    }

    /// Whether `value` is a box around an action, or an enum whose type's name, without generic arguments, ends in
    /// `Action`.
    private static func isAction(_ value: Any) -> Bool {
        if value is any ActionBox { return true }
        guard Mirror(reflecting: value).displayStyle == .enum else { return false }
        let typeName = String(describing: type(of: value))
        let baseName = typeName.prefix { $0 != "<" }
        return baseName.hasSuffix("Action")
    }
}
