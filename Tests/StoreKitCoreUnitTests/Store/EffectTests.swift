import StoreKitCore
import StoreKitSystem
import StoreKitTestFixtures
import Testing

@Suite struct EffectTests {
    @Test func effectActionsAreMarkedWithTheirCause() async {
        // Given an effect that answers add(n) with label(n) and a recording interceptor
        let echo = Effect<Tally.State, Tally.Action>.dispatchingOne { action, _ in
            if case .add(let value) = action { return .label("\(value)") }
            return nil
        }
        let interceptor = RecordingInterceptor()
        let store = Store(initialState: Tally.State(), reducer: Tally.reducer, effects: [echo], interceptors: [interceptor])

        // When an add is dispatched and effects settle
        store.dispatch(.add(3))
        await store.waitForEffects()

        // Then the label came from the effect, caused by step 1
        #expect(interceptor.calls.map(\.origin) == [.app, .effect(cause: 1)])
        #expect(store.state.labels == ["3"])
    }

    @Test func waitForEffectsIncludesChainedEffects() async {
        // Given an effect that counts down through add actions
        let countdown = Effect<Tally.State, Tally.Action>.dispatchingOne { action, _ in
            if case .add(let value) = action, value > 1 { return .add(value - 1) }
            return nil
        }
        let store = Store(initialState: Tally.State(), reducer: Tally.reducer, effects: [countdown])

        // When add(4) starts the chain
        store.dispatch(.add(4))
        await store.waitForEffects()

        // Then 4 + 3 + 2 + 1 were all applied
        #expect(store.state.items == [4, 3, 2, 1])
    }

    @Test func dispatchingMultipleSendsInOrderAndNonDispatchingSendsNothing() async {
        let seen = Locked(0)
        let fanOut = Effect<Tally.State, Tally.Action>.dispatchingMultiple { action, _ in
            if case .clear = action { return [.label("a"), .label("b")] }
            return []
        }
        let watcher = Effect<Tally.State, Tally.Action>.nonDispatching { _, _ in seen.withLock { $0 += 1 } }
        let interceptor = RecordingInterceptor()
        let store = Store(
            initialState: Tally.State(), reducer: Tally.reducer, effects: [fanOut, watcher], interceptors: [interceptor])
        store.dispatch(.clear)
        await store.waitForEffects()
        #expect(interceptor.calls.map(\.action) == [.clear, .label("a"), .label("b")])
        #expect(seen.withLock { $0 } == 3)
    }
}
