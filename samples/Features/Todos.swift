import Foundation
import StoreKitCore

/// A todo list: add, toggle, tag, delete, clear completed, filter.
///
/// Ids and creation dates arrive in the actions' payloads, never made inside the reducer, so replay is deterministic.
public enum Todos {
    /// The id sessions of this feature carry.
    public static let storeID = "todos"

    /// One todo.
    public struct Todo: Codable, Equatable, Sendable, Identifiable {
        /// A stable id, made by the app when the todo is added.
        public var id: UUID
        /// What to do.
        public var title: String
        /// Whether it is done.
        public var isComplete: Bool
        /// When it was added.
        public var createdAt: Date
        /// Free tags; a `Set`, so its encoded order differs from process to process.
        public var tags: Set<String>

        /// Creates an open todo without tags.
        public init(id: UUID, title: String, createdAt: Date) {
            self.id = id
            self.title = title
            self.isComplete = false
            self.createdAt = createdAt
            self.tags = []
        }
    }

    /// Which todos the list shows.
    public enum Filter: String, Codable, Equatable, Sendable, CaseIterable {
        /// Every todo.
        case all
        /// Open todos.
        case active
        /// Done todos.
        case completed
    }

    /// The list's state.
    public struct State: Codable, Equatable, Sendable {
        /// Every todo, oldest first.
        public var todos: [Todo] = []
        /// The current filter.
        public var filter: Filter = .all

        /// Creates an empty list.
        public init() {}
    }

    /// What can happen to the list.
    public enum Action: Codable, Equatable, Sendable {
        /// Adds an open todo.
        case addTodo(id: UUID, title: String, createdAt: Date)
        /// Flips a todo between open and done.
        case toggleCompleted(id: UUID)
        /// Adds a tag to a todo.
        case tag(id: UUID, tag: String)
        /// Removes a todo.
        case delete(id: UUID)
        /// Removes every done todo.
        case clearCompleted
        /// Changes the filter.
        case setFilter(Filter)
    }

    /// The list's reducer.
    public static let reducer = Reducer<State, Action> { state, action in
        switch action {
        case .addTodo(let id, let title, let createdAt):
            state.todos.append(Todo(id: id, title: title, createdAt: createdAt))
        case .toggleCompleted(let id):
            if let index = state.todos.firstIndex(where: { $0.id == id }) {
                state.todos[index].isComplete.toggle()
            }
        case .tag(let id, let tag):
            if let index = state.todos.firstIndex(where: { $0.id == id }) {
                state.todos[index].tags.insert(tag)
            }
        case .delete(let id):
            state.todos.removeAll { $0.id == id }
        case .clearCompleted:
            state.todos.removeAll { $0.isComplete }
        case .setFilter(let filter):
            state.filter = filter
        }
    }

    /// The todos the current filter shows.
    public static let visibleTodos = Selector<State, [Todo]>.create(
        Selector(keyPath: \State.todos), Selector(keyPath: \State.filter)
    ) { todos, filter in
        switch filter {
        case .all: todos
        case .active: todos.filter { !$0.isComplete }
        case .completed: todos.filter(\.isComplete)
        }
    }

    /// How many todos are still open.
    public static let activeCount = Selector<State, Int> { state in
        state.todos.count { !$0.isComplete }
    }
}
