import Foundation
import SampleFeatures
import StoreKitCore
import StoreKitTesting
import Testing

/// The scenarios of Fluxor's testing guide: MockStore with setState and overridden selectors, TestInterceptor,
/// and running effects.
@Suite struct FluxorStyleTests {
    @Test func aViewModelReadsAnOverriddenSelector() {
        // Given a mock store whose visibleTodos selector is overridden
        let store = MockStore<Todos.State, Todos.Action>(initialState: Todos.State())
        let pinned = Todos.Todo(id: TodoFixtures.milk, title: "Pinned", createdAt: TodoFixtures.date)
        store.overrideSelector(Todos.visibleTodos, value: [pinned])

        // When the view model reads it, then it shows the overridden value whatever the state
        let viewModel = TodoListViewModel(store: store)
        #expect(viewModel.visibleTitles == ["Pinned"])
    }

    @Test func setStateChangesWhatTheViewModelShows() {
        let store = MockStore<Todos.State, Todos.Action>(initialState: Todos.State())
        let viewModel = TodoListViewModel(store: store)
        #expect(viewModel.footer == "0 items left")
        var state = Todos.State()
        state.todos = [Todos.Todo(id: TodoFixtures.milk, title: "Milk", createdAt: TodoFixtures.date)]
        store.setState(state)
        #expect(viewModel.footer == "1 item left")
    }

    @Test func aTestInterceptorCountsStateChanges() {
        // Given a real store with a test interceptor
        let interceptor = TestInterceptor<Todos.State, Todos.Action>()
        let store = Store(initialState: Todos.State(), reducer: Todos.reducer, interceptors: [interceptor])
        let viewModel = TodoListViewModel(store: store, makeID: { TodoFixtures.milk }, now: { TodoFixtures.date })
        #expect(interceptor.stateChanges.isEmpty)

        // When the user adds a todo, and then a blank one
        viewModel.add(title: "Milk")
        viewModel.add(title: "   ")

        // Then exactly one state change happened
        #expect(interceptor.stateChanges.count == 1)
        #expect(interceptor.stateChanges[0].newState.todos.map(\.title) == ["Milk"])
    }

    @Test func anEffectReturnsASuccessActionWithAStubbedAPI() async throws {
        var state = Scoreboard.State()
        state.home = 1
        let actions = try await Scoreboard.postScore(to: StubScoreServer(receipt: 42))
            .run(with: .homeScored(points: 1, scorer: "Ada"), state: state)
        #expect(actions == [.scorePosted(receipt: 42)])
    }

    @Test func anEffectReturnsAnErrorActionWithAFailingAPI() async throws {
        let actions = try await Scoreboard.postScore(to: StubScoreServer(failure: ServerDown()))
            .run(with: .awayScored(points: 3, scorer: "Ken"), state: Scoreboard.State(), expecting: 1)
        #expect(actions == [.postFailed(reason: "server down")])
    }

    @Test func anEffectIgnoresActionsItDoesNotHandle() async throws {
        let actions = try await Scoreboard.postScore(to: StubScoreServer()).run(with: .reset, state: Scoreboard.State())
        #expect(actions.isEmpty)
    }

    @Test func aNonDispatchingEffectRunsToCompletion() async {
        let saved = ActionLog<Int>()
        let persist = Effect<Counter.State, Counter.Action>.nonDispatching { _, state in saved.append(state.count) }
        var state = Counter.State()
        state.count = 3
        await persist.runToCompletion(with: .increment, state: state)
        #expect(saved.all == [3])
    }

    @Test func waitingForMoreActionsThanArriveFailsClearly() async {
        let store = MockStore<Counter.State, Counter.Action>(initialState: Counter.State())
        store.dispatch(.increment)
        let error = await #expect(throws: StoreTestingError.self) {
            _ = try await store.waitForActions(count: 2, timeout: .milliseconds(50))
        }
        #expect(error?.description.contains("only 1 arrived") == true)
    }
}
