import Foundation
import StoreKitCore
import StoreKitSystem
import StoreKitTestFixtures
import Testing

/// Keeps every call an interceptor gets, for assertions.
final class RecordingInterceptor: Interceptor, @unchecked Sendable {
    struct Call: Equatable {
        var action: Tally.Action
        var oldTotal: Int
        var newTotal: Int
        var sequence: Int
        var origin: DispatchContext.Origin
    }

    private let lock = NSLock()
    private var stored: [Call] = []
    private let onCall: (@Sendable (Tally.Action) -> Void)?

    init(onCall: (@Sendable (Tally.Action) -> Void)? = nil) {
        self.onCall = onCall
    }

    var calls: [Call] { lock.withLock { stored } }

    func actionDispatched(_ action: Tally.Action, oldState: Tally.State, newState: Tally.State, context: DispatchContext) {
        lock.withLock {
            stored.append(
                Call(
                    action: action, oldTotal: oldState.total, newTotal: newState.total, sequence: context.sequence,
                    origin: context.origin))
        }
        onCall?(action)
    }
}

@Suite struct StoreTests {
    @Test func appliesAnActionBeforeDispatchReturns() {
        let store = Store(initialState: Tally.State(), reducer: Tally.reducer)
        let sequence = store.dispatch(.add(5))
        #expect(sequence == 1)
        #expect(store.state.total == 5)
    }

    @Test func interceptorsSeeActionOldAndNewStateInOrder() {
        let interceptor = RecordingInterceptor()
        let store = Store(initialState: Tally.State(), reducer: Tally.reducer, interceptors: [interceptor])
        store.dispatch(.add(2))
        store.dispatch(.add(3))
        #expect(
            interceptor.calls == [
                .init(action: .add(2), oldTotal: 0, newTotal: 2, sequence: 1, origin: .app),
                .init(action: .add(3), oldTotal: 2, newTotal: 5, sequence: 2, origin: .app),
            ])
    }

    @Test func concurrentDispatchesFormOneGapFreeTotalOrder() async {
        // Given a store with an interceptor
        let interceptor = RecordingInterceptor()
        let store = Store(initialState: Tally.State(), reducer: Tally.reducer, interceptors: [interceptor])

        // When 8 tasks dispatch 1000 actions each at the same time
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { for _ in 0..<1000 { store.dispatch(.add(1)) } }
            }
        }

        // Then every action was applied once, numbered 1...8000, and the interceptor saw them in that order
        #expect(store.state.total == 8000)
        let calls = interceptor.calls
        #expect(calls.map(\.sequence) == Array(1...8000))
        #expect(calls.map(\.newTotal) == Array(1...8000))
    }

    @Test func aDispatchFromAnInterceptorIsAppliedRightAfter() {
        // Given an interceptor that answers every `add` with a label
        let holder = StoreHolder()
        let interceptor = RecordingInterceptor { action in
            if case .add = action { holder.store?.dispatch(.label("seen")) }
        }
        let store = Store(initialState: Tally.State(), reducer: Tally.reducer, interceptors: [interceptor])
        holder.store = store

        // When an add is dispatched
        store.dispatch(.add(1))

        // Then the label was applied after it, before dispatch returned
        #expect(interceptor.calls.map(\.action) == [.add(1), .label("seen")])
        #expect(store.state.labels == ["seen"])
    }

    @Test func observersGetEveryChangedState() {
        let store = Store(initialState: Tally.State(), reducer: Tally.reducer)
        let seen = Locked([Int]())
        let subscription = store.observe { state in seen.withLock { $0.append(state.total) } }
        store.dispatch(.add(1))
        store.dispatch(.label("no change to total"))
        store.dispatch(.add(2))
        subscription.cancel()
        store.dispatch(.add(3))
        #expect(seen.withLock { $0 } == [1, 1, 3])
    }

    @Test func observersAreToldInTheOrderTheySubscribedAndACancelledOneNoMore() {
        // Given a store with four observers, the second of which is cancelled after the first change
        let store = Store(initialState: Tally.State(), reducer: Tally.reducer)
        let told = Locked([String]())
        let subscriptions = ["a", "b", "c", "d"].map { name in
            store.observe { state in told.withLock { $0.append("\(name)\(state.total)") } }
        }
        store.dispatch(.add(1))
        subscriptions[1].cancel()

        // When the state changes again, and then the others are cancelled
        store.dispatch(.add(1))
        for subscription in subscriptions { subscription.cancel() }
        store.dispatch(.add(1))

        // Then each change reached the observers subscribed then, in the order they subscribed
        #expect(told.withLock { $0 } == ["a1", "b1", "c1", "d1", "a2", "c2", "d2"])
    }

    @Test func valuesOfASelectorYieldTheCurrentThenEachDistinctValue() async {
        let store = Store(initialState: Tally.State(), reducer: Tally.reducer)
        let totals = Selector<Tally.State, Int>(keyPath: \.total)
        var iterator = store.values(of: totals).makeAsyncIterator()
        #expect(await iterator.next() == 0)
        store.dispatch(.label("same total"))
        store.dispatch(.add(4))
        #expect(await iterator.next() == 4)
    }

    @Test func registerReadsTheStateAndRegistersAtomically() {
        let store = Store(initialState: Tally.State(), reducer: Tally.reducer)
        store.dispatch(.add(7))
        var seenState: Tally.State?
        let interceptor = store.register { current in
            seenState = current
            return RecordingInterceptor()
        }
        store.dispatch(.add(1))
        #expect(seenState?.total == 7)
        #expect(interceptor.calls.map(\.sequence) == [2])
    }
}

/// Lets an interceptor reach the store it is registered on.
final class StoreHolder: @unchecked Sendable {
    var store: Store<Tally.State, Tally.Action>?
}

