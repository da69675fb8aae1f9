import Foundation
import SampleFeatures
import StoreKitCore
import StoreKitTesting
import Testing

/// docs/testing.md's Fluxor style, given the values it names: a pinned todo, the id and date of an added one, and
/// a scoreboard's state.
func fluxorStyle(pinned: Todos.Todo, id: UUID, date: Date, state: Scoreboard.State) async throws {
    // snippet: testing-fluxor-style
    let store = MockStore<Todos.State, Todos.Action>(initialState: Todos.State())
    store.overrideSelector(Todos.visibleTodos, value: [pinned])          // setState(_:) sets the whole state
    let viewModel = TodoListViewModel(store: store)
    #expect(viewModel.visibleTitles == ["Pinned"])
    viewModel.add(title: "Milk")
    #expect(try await store.waitForActions(count: 1) == [.addTodo(id: id, title: "Milk", createdAt: date)])

    let interceptor = TestInterceptor<Todos.State, Todos.Action>()       // on a real store
    let real = Store(initialState: Todos.State(), reducer: Todos.reducer, interceptors: [interceptor])
    TodoListViewModel(store: real).add(title: "Milk")
    #expect(interceptor.stateChanges.count == 1)

    let actions = try await Scoreboard.postScore(to: StubScoreServer(receipt: 42))   // a stubbed API
        .run(with: .homeScored(points: 1, scorer: "Ada"), state: state)
    #expect(actions == [.scorePosted(receipt: 42)])
    // snippet end
}
