import Foundation
import StoreKitCore
import StoreKitTestFixtures
import Testing

/// The id the tests' long-running work runs under.
private struct TickerID: Hashable, Sendable {}

/// Waits until `condition` holds, at most a generous real-time bound; returns whether it held.
private func eventually(_ condition: () -> Bool) async -> Bool {
    let limit = ContinuousClock.now + .seconds(60)
    while !condition() {
        if ContinuousClock.now > limit { return false }
        await Task.yield()
    }
    return true
}

/// A ticker on Tally: `add(n)` with n > 0 starts long-running work n under one id (newest wins), `add(0)` stops it.
private func ticker(ended: Locked<[Int]>, started: Locked<[Int]>, cancelInFlight: Bool = true) -> Effect<
    Tally.State, Tally.Action
> {
    Effect("ticker") { action, context in
        guard case .add(let number) = action else { return }
        if number == 0 {
            context.cancel(id: TickerID())
            return
        }
        await context.cancellable(id: TickerID(), cancelInFlight: cancelInFlight) {
            started.withLock { $0.append(number) }
            defer { ended.withLock { $0.append(number) } }
            while true {
                try await Task.sleep(for: .seconds(3600))
                context.send(.label("tick \(number)"))
            }
        }
    }
}

@Suite struct EffectContextTests {
    @Test func contextStateIsTheStoresStateAtTheMomentItIsRead() async {
        // Given an effect that, on label("read"), waits for a go and then records the total it reads
        let (go, goContinuation) = AsyncStream<Void>.makeStream()
        let reader = Effect<Tally.State, Tally.Action>("reader") { action, context in
            guard action == .label("read") else { return }
            for await _ in go { break }
            context.send(.setRatio(Double(context.state.total)))
        }
        let store = Store(initialState: Tally.State(), reducer: Tally.reducer, effects: [reader])

        // When the total changes after the action but before the effect reads
        store.dispatch(.label("read"))
        store.dispatch(.add(5))
        goContinuation.yield()
        await store.waitForEffects()

        // Then the effect saw the later total, not the state right after its action
        #expect(store.state.ratio == 5)
    }

    @Test func cancelByIDEndsLongRunningWorkAndItsEffect() async {
        // Given long-running work started by add(1)
        let ended = Locked([Int]())
        let started = Locked([Int]())
        let store = Store(
            initialState: Tally.State(), reducer: Tally.reducer, effects: [ticker(ended: ended, started: started)])
        store.dispatch(.add(1))
        #expect(await eventually { started.withLock { $0 } == [1] })

        // When add(0) cancels the id
        store.dispatch(.add(0))
        await store.waitForEffects()

        // Then the work ended by cancellation (no tick), and every effect returned
        #expect(ended.withLock { $0 } == [1])
        #expect(store.state.labels.isEmpty)
    }

    @Test func aStopSentRightAfterAStartStopsItEvenIfTheStopsEffectRunsFirst() async {
        for _ in 1...50 {
            // Given a start and a stop dispatched back to back (their effects' tasks may run in either order)
            let ended = Locked([Int]())
            let started = Locked([Int]())
            let store = Store(
                initialState: Tally.State(), reducer: Tally.reducer, effects: [ticker(ended: ended, started: started)])
            store.dispatch(.add(1))
            store.dispatch(.add(0))

            // Then every effect ends: the work was stopped, or never started
            await store.waitForEffects()
            #expect(started.withLock { $0 } == ended.withLock { $0 })
        }
    }

    @Test func cancelInFlightKeepsOnlyTheNewestWork() async {
        // Given work 1 running
        let ended = Locked([Int]())
        let started = Locked([Int]())
        let store = Store(
            initialState: Tally.State(), reducer: Tally.reducer, effects: [ticker(ended: ended, started: started)])
        store.dispatch(.add(1))
        #expect(await eventually { started.withLock { $0 } == [1] })

        // When work 2 starts under the same id with cancelInFlight
        store.dispatch(.add(2))

        // Then work 1 ends and work 2 runs on
        #expect(await eventually { started.withLock { $0 } == [1, 2] && ended.withLock { $0 } == [1] })

        // When the store cancels the id from outside, then work 2 ends too
        store.cancelEffects(id: TickerID())
        await store.waitForEffects()
        #expect(ended.withLock { $0 } == [1, 2])
    }

    @Test func withoutCancelInFlightWorkUnderOneIDRunsSideBySide() async {
        let ended = Locked([Int]())
        let started = Locked([Int]())
        let store = Store(
            initialState: Tally.State(), reducer: Tally.reducer,
            effects: [ticker(ended: ended, started: started, cancelInFlight: false)])
        store.dispatch(.add(1))
        store.dispatch(.add(2))
        #expect(await eventually { started.withLock { $0 }.sorted() == [1, 2] })
        #expect(ended.withLock { $0 }.isEmpty)
        store.cancelEffects(id: TickerID())
        await store.waitForEffects()
        #expect(ended.withLock { $0 }.sorted() == [1, 2])
    }

    @Test func aStoreWideCancelCancelsWorkInsideEffects() async {
        let ended = Locked([Int]())
        let started = Locked([Int]())
        let store = Store(
            initialState: Tally.State(), reducer: Tally.reducer, effects: [ticker(ended: ended, started: started)])
        store.dispatch(.add(1))
        #expect(await eventually { started.withLock { $0 } == [1] })
        store.cancelEffects()
        await store.waitForEffects()
        #expect(ended.withLock { $0 } == [1])
    }

    @Test func workStartedAfterAStoreCancelByAnActionLaterThanItRuns() async {
        // Given the id cancelled from outside before anything ran
        let ended = Locked([Int]())
        let started = Locked([Int]())
        let store = Store(
            initialState: Tally.State(), reducer: Tally.reducer, effects: [ticker(ended: ended, started: started)])
        store.cancelEffects(id: TickerID())

        // When a later action starts work under it, then it runs
        store.dispatch(.add(1))
        #expect(await eventually { started.withLock { $0 } == [1] })
        store.cancelEffects(id: TickerID())
        await store.waitForEffects()
    }

    @Test func sendFromTheContextIsMarkedWithItsCause() async {
        let answer = Effect<Tally.State, Tally.Action>("answer") { action, context in
            if case .add(let value) = action { context.send(.label("\(value)")) }
        }
        let interceptor = RecordingInterceptor()
        let store = Store(
            initialState: Tally.State(), reducer: Tally.reducer, effects: [answer], interceptors: [interceptor])
        store.dispatch(.add(3))
        await store.waitForEffects()
        #expect(interceptor.calls.map(\.origin) == [.app, .effect(cause: 1)])
    }

    @Test func performOutsideAStoreReadsTheGivenState() async {
        let echo = Effect<Tally.State, Tally.Action>("echo") { _, context in
            context.send(.add(context.state.total))
        }
        var state = Tally.State()
        state.total = 7
        let sent = Locked([Tally.Action]())
        await echo.perform(.clear, state: state, send: Send { action in sent.withLock { $0.append(action) } })
        #expect(sent.withLock { $0 } == [.add(7)])
    }
}
