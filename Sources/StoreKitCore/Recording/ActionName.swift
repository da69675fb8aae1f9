/// Derives an action's display name from its JSON, the way Swift's synthesized `Codable` spells enum cases.
enum ActionName {
    /// `addTodo` for `{"addTodo":{...}}` or `"addTodo"`; the type's name for anything else.
    static func of<Action>(_ json: JSONValue, action: Action) -> String {
        switch json {
        case .string(let name):
            return name
        case .object(let members) where members.count == 1:
            return members.keys.first!
        default:
            return String(describing: Action.self)
        }
    }
}
