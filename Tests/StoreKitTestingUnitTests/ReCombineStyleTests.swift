import Foundation
import SampleFeatures
import StoreKitCore
import StoreKitTesting
import Testing

/// ReCombine's testing guide: reducers and memoized selectors as pure functions, effects with mocked APIs, and
/// view models with a MockStore.
@Suite struct ReCombineStyleTests {
    @Test func aReducerIsAPureFunction() {
        var state = Todos.State()
        Todos.reducer.reduce(&state, .addTodo(id: TodoFixtures.milk, title: "Milk", createdAt: TodoFixtures.date))
        Todos.reducer.reduce(&state, .toggleCompleted(id: TodoFixtures.milk))
        #expect(state.todos.map(\.isComplete) == [true])
    }

    @Test func aMemoizedSelectorIsAPureFunctionOfItsInputs() {
        var state = Todos.State()
        state.todos = [
            Todos.Todo(id: TodoFixtures.milk, title: "Milk", createdAt: TodoFixtures.date),
            Todos.Todo(id: TodoFixtures.eggs, title: "Eggs", createdAt: TodoFixtures.date),
        ]
        state.todos[1].isComplete = true
        state.filter = .active
        #expect(Todos.visibleTodos(state).map(\.title) == ["Milk"])
        state.filter = .completed
        #expect(Todos.visibleTodos(state).map(\.title) == ["Eggs"])
    }

    @Test func aViewModelDispatchesThroughTheMockStore() async throws {
        let store = MockStore<Todos.State, Todos.Action>(initialState: Todos.State())
        let viewModel = TodoListViewModel(store: store, makeID: { TodoFixtures.milk }, now: { TodoFixtures.date })
        viewModel.add(title: "  Milk ")
        #expect(try await store.waitForActions(count: 1) == [.addTodo(id: TodoFixtures.milk, title: "Milk", createdAt: TodoFixtures.date)])
    }
}
