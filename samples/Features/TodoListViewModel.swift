import Foundation
import StoreKitCore

/// A view model over the todo list, written against `StoreProtocol` so tests can give it a mock store.
public final class TodoListViewModel: Sendable {
    private let store: any StoreProtocol<Todos.State, Todos.Action>
    private let makeID: @Sendable () -> UUID
    private let now: @Sendable () -> Date

    /// Creates the view model; ids and dates come from the given functions, so tests can fix them.
    public init(
        store: any StoreProtocol<Todos.State, Todos.Action>, makeID: @escaping @Sendable () -> UUID = UUID.init,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.store = store
        self.makeID = makeID
        self.now = now
    }

    /// The titles the list shows under the current filter.
    public var visibleTitles: [String] { store.select(Todos.visibleTodos).map(\.title) }

    /// "3 items left".
    public var footer: String {
        let count = store.select(Todos.activeCount)
        return "\(count) item\(count == 1 ? "" : "s") left"
    }

    /// The user typed a title and pressed return; blank titles are ignored.
    public func add(title: String) {
        let trimmed = title.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return }
        store.dispatch(.addTodo(id: makeID(), title: trimmed, createdAt: now()))
    }
}
