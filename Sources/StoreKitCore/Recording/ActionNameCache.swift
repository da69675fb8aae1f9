/// Names actions as ``ActionName/of(_:)`` does, working out what it looks at in each type (whether it is a box
/// around an action, how a mirror displays it, its name) once per type rather than once per action.
///
/// For a type that reflects itself (`CustomReflectable`), whose mirrors may display each value otherwise, the
/// mirror of each value is asked how it displays. The names are those of ``ActionName/of(_:)`` for every action (a
/// test compares them). Used by one thread at a time: a recorder's worker.
package final class ActionNameCache {
    private var facts: [ObjectIdentifier: ActionName.Facts] = [:]

    /// Creates a cache that knows no type yet.
    package init() {}

    /// The display name of `action`, as ``ActionName/of(_:)`` gives it.
    package func name(of action: some Any) -> String {
        ActionName.name(of: action) { value in
            let type = ObjectIdentifier(Swift.type(of: value))
            if let known = facts[type] { return known }
            let found = ActionName.Facts(of: value, forEveryValue: true)
            facts[type] = found
            return found
        }
    }
}
