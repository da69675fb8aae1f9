/// Names actions as ``ActionName/of(_:)`` does, working out what it looks at in each type (whether it is a box
/// around an action, how a mirror displays it, its name) once per type rather than once per action, and the name of
/// each case of an enum of plain data once per case.
///
/// For a type that reflects itself (`CustomReflectable`), whose mirrors may display each value otherwise, the
/// mirror of each value is asked how it displays. The names are those of ``ActionName/of(_:)`` for every action (a
/// test compares them). Used by one thread at a time: a recorder's worker.
package final class ActionNameCache {
    /// A case of an enum type.
    private struct Case: Hashable {
        let type: ObjectIdentifier
        let tag: UInt32
    }

    private var facts: [ObjectIdentifier: ActionName.Facts] = [:]
    /// The names of the cases of enums of plain data whose payload holds no action.
    private var namesOfCases: [Case: String] = [:]

    /// Creates a cache that knows no type yet.
    package init() {}

    /// The display name of `action`, as ``ActionName/of(_:)`` gives it.
    ///
    /// An enum of plain data (``EnumCaseTag``) has one payload type per case, with nothing in it whose type is
    /// known only at run time, so whether a case's payload holds an action is the same for every value of the
    /// case: when it holds none, the case's name is every such value's name, and it is kept for the case (unless a
    /// type met on the way reflects itself, whose mirrors may differ from value to value).
    package func name<Action>(of action: Action) -> String {
        let key = EnumCaseTag.of(action).map { Case(type: ObjectIdentifier(Action.self), tag: $0) }
        if let key, let name = namesOfCases[key] { return name }
        var metATypeThatReflectsItself = false
        let name = ActionName.name(of: action) { value in
            let found = self.facts(of: value)
            if found.asksEachValue { metATypeThatReflectsItself = true }
            return found
        }
        // One case's name, not a path through a nested action (which is named from its own value each time).
        if let key, !metATypeThatReflectsItself, !(action is any ActionBox), !name.contains(".") {
            namesOfCases[key] = name
        }
        return name
    }

    private func facts(of value: Any) -> ActionName.Facts {
        let type = ObjectIdentifier(Swift.type(of: value))
        if let known = facts[type] { return known }
        let found = ActionName.Facts(of: value, forEveryValue: true)
        facts[type] = found
        return found
    }
}
