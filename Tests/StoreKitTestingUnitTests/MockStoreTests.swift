import Foundation
import SampleFeatures
import StoreKitCore
import StoreKitSystem
import StoreKitTesting
import Testing

/// A view model that shows a counter's label as the store changes, written against `StoreProtocol`.
private final class CounterLabelModel: Sendable {
    private let store: any StoreProtocol<Counter.State, Counter.Action>
    private let shown = Locked([String]())
    private let subscription: StoreSubscription

    static let label = Selector<Counter.State, String> { "count \($0.count)" }

    init(store: any StoreProtocol<Counter.State, Counter.Action>) {
        self.store = store
        let shown = shown
        subscription = store.observe { state in shown.withLock { $0.append("count \(state.count)") } }
    }

    /// Every label shown so far.
    var labels: [String] { shown.withLock { $0 } }

    func plusTapped() { store.dispatch(.increment) }
}

@Suite struct MockStoreTests {
    @Test func aViewModelObservingTheStoreSeesSetStateAndDispatch() {
        // Given a view model over a mock store with a reducer
        let store = MockStore<Counter.State, Counter.Action>(initialState: Counter.State(), reducer: Counter.reducer)
        let model = CounterLabelModel(store: store)

        // When the test sets a state and the view model dispatches
        var state = Counter.State()
        state.count = 41
        store.setState(state)
        model.plusTapped()

        // Then the view model was told both times, and the action was recorded
        #expect(model.labels == ["count 41", "count 42"])
        #expect(store.dispatchedActions == [.increment])
    }

    @Test func valuesOfASelectorYieldTheCurrentValueThenEachChange() async {
        let store = MockStore<Counter.State, Counter.Action>(initialState: Counter.State())
        var iterator = store.values(of: CounterLabelModel.label).makeAsyncIterator()
        #expect(await iterator.next() == "count 0")
        var state = Counter.State()
        state.count = 3
        store.setState(state)
        store.setState(state)
        state.count = 4
        store.setState(state)
        #expect(await iterator.next() == "count 3")
        #expect(await iterator.next() == "count 4")
    }

    @Test func valuesHonourASelectorOverride() async {
        let store = MockStore<Counter.State, Counter.Action>(initialState: Counter.State())
        store.overrideSelector(CounterLabelModel.label, value: "overridden")
        var iterator = store.values(of: CounterLabelModel.label).makeAsyncIterator()
        #expect(await iterator.next() == "overridden")
    }

    @Test func aCancelledObservationHearsNothingMore() {
        let store = MockStore<Counter.State, Counter.Action>(initialState: Counter.State(), reducer: Counter.reducer)
        let heard = Locked(0)
        let subscription = store.observe { _ in heard.withLock { $0 += 1 } }
        store.dispatch(.increment)
        subscription.cancel()
        store.dispatch(.increment)
        #expect(heard.withLock { $0 } == 1)
    }

    @Test func theSameViewModelWorksAgainstARealStore() {
        let store = Store(initialState: Counter.State(), reducer: Counter.reducer)
        let model = CounterLabelModel(store: store)
        model.plusTapped()
        #expect(model.labels == ["count 1"])
    }
}

/// `MockStore.select` of a selector whose value is optional: the override when there is one, else the state.
@Suite struct MockStoreOptionalSelectorTests {
    private struct Profile: Sendable {
        var nickname: String?
    }

    private static let nickname = Selector<Profile, String?> { $0.nickname }

    @Test func anOptionalSelectorThatIsNotOverriddenReadsTheState() {
        let store = MockStore<Profile, Counter.Action>(initialState: Profile(nickname: "Ada"))
        #expect(store.select(Self.nickname) == "Ada")
    }

    @Test func anOptionalSelectorOverriddenWithNilSelectsNil() {
        let store = MockStore<Profile, Counter.Action>(initialState: Profile(nickname: "Ada"))
        store.overrideSelector(Self.nickname, value: nil)
        #expect(store.select(Self.nickname) == nil)
        store.resetOverrides()
        #expect(store.select(Self.nickname) == "Ada")
    }

    @Test func anOptionalSelectorOverriddenWithAValueSelectsIt() {
        let store = MockStore<Profile, Counter.Action>(initialState: Profile(nickname: nil))
        store.overrideSelector(Self.nickname, value: "Grace")
        #expect(store.select(Self.nickname) == "Grace")
    }
}
