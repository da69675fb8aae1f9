import Foundation
import StoreKitCore
import StoreKitSystem
import StoreKitTestFixtures
import Testing

/// The id the tests' long-running work runs under.
private struct TickerID: Hashable, Sendable {}

/// Waits until `condition` holds, at most a generous real-time bound; returns whether it held. It checks every few
/// milliseconds and sleeps in between: a loop of `Task.yield()` keeps a thread of the shared pool busy. The effects'
/// tasks it waits for run on that pool, which the whole suite shares (two threads on two cores): in a whole run on
/// a clean clone, with the end-to-end tests compiling packages beside it, they waited over two minutes before they
/// ran, so the bound is ten.
private func eventually(_ condition: () -> Bool) async -> Bool {
    let limit = ContinuousClock.now + .seconds(600)
    while !condition() {
        if ContinuousClock.now > limit { return false }
        try? await Task.sleep(for: .milliseconds(5))
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

@Suite struct CancellableEffectTests {
    @Test func contextStateIsTheStoresStateAtTheMomentItIsRead() async throws {
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
        try await store.waitForEffects(timeout: .seconds(600))

        // Then the effect saw the later total, not the state right after its action
        #expect(store.state.ratio == 5)
    }

    @Test func cancelByIDEndsLongRunningWorkAndItsEffect() async throws {
        // Given long-running work started by add(1)
        let ended = Locked([Int]())
        let started = Locked([Int]())
        let store = Store(
            initialState: Tally.State(), reducer: Tally.reducer, effects: [ticker(ended: ended, started: started)])
        store.dispatch(.add(1))
        #expect(await eventually { started.withLock { $0 } == [1] })

        // When add(0) cancels the id
        store.dispatch(.add(0))
        try await store.waitForEffects(timeout: .seconds(600))

        // Then the work ended by cancellation (no tick), and every effect returned
        #expect(ended.withLock { $0 } == [1])
        #expect(store.state.labels.isEmpty)
    }

    @Test func aStopHandledBeforeTheStartReachesItsWorkStillStopsIt() async throws {
        // Given a start whose effect reaches its work only after the stop's effect has run
        let (stopHandled, signalStopHandled) = AsyncStream<Void>.makeStream()
        let started = Locked(false)
        let effect = Effect<Tally.State, Tally.Action>("ticker") { action, context in
            switch action {
            case .add:
                for await _ in stopHandled { break }
                await context.cancellable(id: TickerID()) {
                    started.withLock { $0 = true }
                    try await Task.sleep(for: .seconds(3600))
                }
            case .clear:
                context.cancel(id: TickerID())
                signalStopHandled.yield()
            default:
                break
            }
        }
        let store = Store(initialState: Tally.State(), reducer: Tally.reducer, effects: [effect])

        // When start and stop are dispatched in that order
        store.dispatch(.add(1))
        store.dispatch(.clear)

        // Then the start's work never runs, because the stop came later in dispatch order
        try await store.waitForEffects(timeout: .seconds(600))
        #expect(started.withLock { $0 } == false)
    }

    @Test func cancelInFlightKeepsOnlyTheNewestWork() async throws {
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
        try await store.waitForEffects(timeout: .seconds(600))
        #expect(ended.withLock { $0 } == [1, 2])
    }

    @Test func withoutCancelInFlightWorkUnderOneIDRunsSideBySide() async throws {
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
        try await store.waitForEffects(timeout: .seconds(600))
        #expect(ended.withLock { $0 }.sorted() == [1, 2])
    }

    @Test func aStoreWideCancelCancelsWorkInsideEffects() async throws {
        let ended = Locked([Int]())
        let started = Locked([Int]())
        let store = Store(
            initialState: Tally.State(), reducer: Tally.reducer, effects: [ticker(ended: ended, started: started)])
        store.dispatch(.add(1))
        #expect(await eventually { started.withLock { $0 } == [1] })
        store.cancelEffects()
        try await store.waitForEffects(timeout: .seconds(600))
        #expect(ended.withLock { $0 } == [1])
    }

    @Test func workStartedAfterAStoreCancelByAnActionLaterThanItRuns() async throws {
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
        try await store.waitForEffects(timeout: .seconds(600))
    }

    @Test func sendFromTheContextIsMarkedWithItsCause() async throws {
        let answer = Effect<Tally.State, Tally.Action>("answer") { action, context in
            if case .add(let value) = action { context.send(.label("\(value)")) }
        }
        let interceptor = RecordingInterceptor()
        let store = Store(
            initialState: Tally.State(), reducer: Tally.reducer, effects: [answer], interceptors: [interceptor])
        store.dispatch(.add(3))
        try await store.waitForEffects(timeout: .seconds(600))
        #expect(interceptor.calls.map(\.origin) == [.app, .effect(cause: 1)])
    }

    @Test func performOutsideAStoreReadsTheGivenState() async throws {
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

@Suite struct WaitForEffectsTests {
    @Test func aTimedWaitNamesEachEffectStillRunningAndWhatStartedIt() async {
        // Given a ticker started by step 2 and never stopped
        let store = Store(
            initialState: Tally.State(), reducer: Tally.reducer,
            effects: [ticker(ended: Locked([]), started: Locked([]))])
        store.dispatch(.label("first"))
        store.dispatch(.add(4))

        // When a test waits for the effects a short while
        let error = await #expect(throws: EffectsStillRunning.self) {
            try await store.waitForEffects(timeout: .milliseconds(50))
        }

        // Then the error names the ticker and step 2's action; the effect still runs until cancelled
        #expect(error?.running == [RunningEffect(name: "ticker", sequence: 2, action: "add(4)")])
        #expect(error?.description == #"effect still running after 0.05 seconds: "ticker" started by step 2 add(4)"#)
        store.cancelEffects()
        #expect(await store.effectsEnd())
    }

    @Test func aTimedWaitReturnsAsSoonAsEffectsEnd() async throws {
        let store = Store(
            initialState: Tally.State(), reducer: Tally.reducer,
            effects: [.dispatchingOne { action, _ in action == .clear ? .add(1) : nil }])
        store.dispatch(.clear)
        try await store.waitForEffects(timeout: .seconds(600))
        #expect(store.state.total == 1)
    }
}

extension Store {
    /// Whether every effect ends within a generous bound.
    fileprivate func effectsEnd() async -> Bool {
        do {
            try await waitForEffects(timeout: .seconds(600))
            return true
        } catch {
            return false
        }
    }
}
