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
        name(of: action) { Facts(of: $0) }
    }

    /// What naming looks at in a value's type: whether it is a box around an action, how a mirror displays its
    /// values, and whether its name ends in `Action`. Worked out from one value; ``ActionNameCache`` keeps it per
    /// type, so for a type that reflects itself (`CustomReflectable`), whose mirrors may display each value
    /// otherwise, it then holds no display style and the mirror of each value is asked.
    struct Facts {
        let type: Any.Type
        let isBox: Bool
        /// How a mirror displays the values of the type; `nil` when it is asked for each value.
        private let style: Mirror.DisplayStyle??
        /// Whether the type's name, without generic arguments, ends in `Action`, when worked out ahead.
        private let knownEndsInAction: Bool?

        /// The facts of `value`'s type, for `value` alone, or with `forEveryValue` for every value of its type
        /// (then worked out ahead, which costs more once).
        init(of value: Any, forEveryValue: Bool = false) {
            type = Swift.type(of: value)
            isBox = value is any ActionBox
            guard forEveryValue else {
                style = .some(Mirror(reflecting: value).displayStyle)
                knownEndsInAction = nil
                return
            }
            style =
                value is any CustomReflectable && !Self.reflectAlike.contains(ObjectIdentifier(type))
                ? nil : .some(Mirror(reflecting: value).displayStyle)
            knownEndsInAction = Self.endsInAction(type)
        }

        /// The standard library's types that reflect themselves (`CustomReflectable`) the same way for every value:
        /// its numbers, `Bool` and `String`.
        private static let reflectAlike: Set<ObjectIdentifier> = [
            ObjectIdentifier(Int.self), ObjectIdentifier(Int8.self), ObjectIdentifier(Int16.self),
            ObjectIdentifier(Int32.self), ObjectIdentifier(Int64.self), ObjectIdentifier(UInt.self),
            ObjectIdentifier(UInt8.self), ObjectIdentifier(UInt16.self), ObjectIdentifier(UInt32.self),
            ObjectIdentifier(UInt64.self), ObjectIdentifier(Double.self), ObjectIdentifier(Float.self),
            ObjectIdentifier(Bool.self), ObjectIdentifier(String.self),
        ]

        /// Whether a mirror of each value is asked how it displays (a type that reflects itself).
        var asksEachValue: Bool { style == nil }

        /// How a mirror of `value`, a value of the type, displays it.
        func displayStyle(of value: Any) -> Mirror.DisplayStyle? {
            style ?? Mirror(reflecting: value).displayStyle
        }

        /// Whether `value`, a value of the type, is a box around an action, or an enum whose type's name, without
        /// generic arguments, ends in `Action`.
        func isAction(_ value: Any) -> Bool {
            if isBox { return true }
            if let knownEndsInAction { return knownEndsInAction && displayStyle(of: value) == .enum }
            return displayStyle(of: value) == .enum && Self.endsInAction(type)
        }

        private static func endsInAction(_ type: Any.Type) -> Bool {
            String(describing: type).prefix { $0 != "<" }.hasSuffix("Action")
        }
    }

    /// The display name of `action` (see ``of(_:)``), with what it looks at in each value's type from `facts`.
    static func name(of action: Any, facts: (Any) -> Facts) -> String {
        var names: [String] = []
        var current: Any = action
        while true {
            var currentFacts = facts(current)
            if currentFacts.isBox, let box = current as? any ActionBox {
                if let name = box.boxedActionName {
                    names.append(name)
                    break
                }
                current = box.boxedAction
                currentFacts = facts(current)
            }
            guard currentFacts.displayStyle(of: current) == .enum else {
                names.append(String(describing: currentFacts.type))
                break
            }
            guard let (name, payload) = caseAndPayload(of: current) else {
                // A case without a payload describes itself by its name.
                names.append(String(describing: current))
                break
            }
            names.append(name)
            guard let payload, let nested = nestedAction(in: payload, facts: facts) else { break }
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
    private static func nestedAction(in payload: Any, facts: (Any) -> Facts) -> Any? {
        let payloadFacts = facts(payload)
        if payloadFacts.isAction(payload) { return payload }
        guard payloadFacts.displayStyle(of: payload) == .tuple else { return nil }
        // One walk over the elements: the mirror's children come through type-erased boxes, each walk paid again.
        var onlyAction: Any?
        var actionCount = 0
        for child in Mirror(reflecting: payload).children where facts(child.value).isAction(child.value) {
            if child.label == "action" { return child.value }
            onlyAction = child.value
            actionCount += 1
        }
        return actionCount == 1 ? onlyAction : nil
    }
}
