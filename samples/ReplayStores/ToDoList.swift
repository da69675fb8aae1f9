import StoreKitCore
import StoreKitReplay

/// A todo list as ReSwift's todo example holds it: each todo identified by `toDoID`, not `id`. A replay through the
/// host finds that `ToDo`'s `id` is `toDoID` and matches the todos by it; a comparison of recorded files alone needs
/// `.replay.json`'s `"identity": {"todos": "toDoID"}`.
public enum ToDoList {
    /// The id sessions of this store carry.
    public static let storeID = "todo-list"

    /// One todo; `Identifiable` through `toDoID`, which is how it encodes.
    public struct ToDo: Codable, Equatable, Sendable, Identifiable {
        /// Its identity, unique in the list.
        public var toDoID: String
        /// What to do.
        public var title: String
        /// Whether it is done.
        public var completed = false

        /// The identity, as `Identifiable` asks for it.
        public var id: String { toDoID }

        /// Creates a todo not yet done.
        public init(toDoID: String, title: String) {
            self.toDoID = toDoID
            self.title = title
        }
    }

    /// The list.
    public struct State: Codable, Equatable, Sendable {
        /// The todos, in the order added.
        public var todos: [ToDo]

        /// A list of `todos`.
        public init(todos: [ToDo] = []) {
            self.todos = todos
        }
    }

    /// What the user does.
    public enum Action: Codable, Equatable, Sendable {
        /// Adds a todo at the end of the list.
        case add(toDoID: String, title: String)
        /// Marks a todo done, or not done.
        case toggle(toDoID: String)
    }

    /// Adds at the end, toggles by identity.
    public static let reducer = reducer(insertingAt: { state in state.todos.endIndex })
    /// A deliberate regression: adds a new todo first instead of last.
    public static let reducerInsertingFirst = reducer(insertingAt: { _ in 0 })

    /// The reducer, with new todos inserted where `insertionIndex` says.
    private static func reducer(insertingAt insertionIndex: @escaping @Sendable (State) -> Int) -> Reducer<State, Action> {
        Reducer { state, action in
            switch action {
            case .add(let toDoID, let title):
                state.todos.insert(ToDo(toDoID: toDoID, title: title), at: insertionIndex(state))
            case .toggle(let toDoID):
                guard let index = state.todos.firstIndex(where: { $0.toDoID == toDoID }) else { return }
                state.todos[index].completed.toggle()
            }
        }
    }
}
