import Foundation
import RehearsalFeatures
import StoreKitCore
import StoreKitTesting
import Testing

/// The rehearsal timer effect in a real store whose clock is a ``ScriptedClock``: it ticks while a rehearsal counts in or
/// plays, a second start cancels the first in flight, and pausing, popping or finishing stops it.
@Suite struct RehearsalTimerTests {
    typealias Fixtures = RehearsalFixtures

    /// A store with one setlist's rehearsal pushed (screen 2 on the stack), its timer on the store's clock, `clock`.
    private func rehearsing(
        songs: Int = 2, seconds: Int64 = 2, on clock: ScriptedClock
    ) -> (Store<RehearsalApp.State, RehearsalApp.Action>, TestInterceptor<RehearsalApp.State, RehearsalApp.Action>) {
        var state = RehearsalApp.State()
        state.setlists.setlists = [Fixtures.setlist(1, songs: songs, seconds: seconds)]
        let interceptor = TestInterceptor<RehearsalApp.State, RehearsalApp.Action>()
        let store = Store(
            initialState: state, reducer: RehearsalApp.reducer, effects: [RehearsalApp.timer],
            interceptors: [interceptor], clock: clock)
        store.dispatch(.setlists(.setlistTapped(id: Fixtures.id(1))))
        store.dispatch(.path(.element(id: 1, action: .detail(.startRehearsalTapped(id: Fixtures.id(50), at: Fixtures.date())))))
        return (store, interceptor)
    }

    private func rehearsal(_ store: Store<RehearsalApp.State, RehearsalApp.Action>) -> Rehearsal.State? {
        Fixtures.topRehearsal(store.state)
    }

    /// Advances one second and waits until the timer has sent its tick and called sleep again.
    private func tick(_ clock: ScriptedClock) async -> Bool {
        let calls = clock.sleepCallCount
        clock.advance(by: .seconds(1))
        return await Fixtures.within { await clock.waitUntil(sleepCalls: calls + 1) }
    }

    @Test func aSecondStartCancelsTheFirstTimerInFlight() async throws {
        // Given a rehearsal whose timer runs
        let clock = ScriptedClock()
        let (store, interceptor) = rehearsing(on: clock)
        let first = store.dispatch(.path(.element(id: 2, action: .rehearsal(.startTapped))))
        #expect(await Fixtures.within { await clock.waitUntil(sleepCalls: 1, sleepers: 1) })

        // When start is sent again (a double tap) and one second passes
        let second = store.dispatch(.path(.element(id: 2, action: .rehearsal(.startTapped))))
        #expect(await Fixtures.within { await clock.waitUntil(sleepCalls: 2, sleepers: 1) })
        #expect(await tick(clock))

        // Then exactly one tick arrived, from the second start's timer
        let ticks = interceptor.stateChanges.filter { $0.context.origin != .app }
        #expect(ticks.count == 1)
        #expect(ticks.first?.context.origin == .effect(cause: second))
        #expect(first < second)
        #expect(rehearsal(store)?.phase == .countingIn(beatsLeft: Rehearsal.countInBeats - 1))
        store.dispatch(.path(.element(id: 2, action: .rehearsal(.discardTapped))))
        try await store.waitForEffects(timeout: .seconds(10))
    }

    @Test func pausingStopsTheTimerAndResumingStartsIt() async throws {
        let clock = ScriptedClock()
        let (store, _) = rehearsing(on: clock)
        store.dispatch(.path(.element(id: 2, action: .rehearsal(.startTapped))))
        #expect(await Fixtures.within { await clock.waitUntil(sleepCalls: 1, sleepers: 1) })
        for _ in 0..<Rehearsal.countInBeats { #expect(await tick(clock)) }
        #expect(rehearsal(store)?.phase == .playing)

        // When paused, the timer stops sleeping: time passing sends nothing
        store.dispatch(.path(.element(id: 2, action: .rehearsal(.pauseTapped))))
        #expect(await Fixtures.within { await clock.waitUntil(sleepCalls: 0, sleepers: 0) })
        let calls = clock.sleepCallCount
        clock.advance(by: .seconds(5))
        #expect(clock.sleepCallCount == calls)
        #expect(rehearsal(store)?.elapsed == .zero)

        // When resumed, it ticks again
        store.dispatch(.path(.element(id: 2, action: .rehearsal(.resumeTapped))))
        #expect(await Fixtures.within { await clock.waitUntil(sleepCalls: calls + 1, sleepers: 1) })
        #expect(await tick(clock))
        #expect(rehearsal(store)?.elapsed == .seconds(1))
        store.dispatch(.path(.element(id: 2, action: .rehearsal(.endTapped))))
        try await store.waitForEffects(timeout: .seconds(10))
    }

    @Test func theTimerStopsItselfWhenTheRehearsalFinishes() async throws {
        // Given a rehearsal of one two-second song, counted in and played to its end
        let clock = ScriptedClock()
        let (store, interceptor) = rehearsing(songs: 1, seconds: 2, on: clock)
        store.dispatch(.path(.element(id: 2, action: .rehearsal(.startTapped))))
        #expect(await Fixtures.within { await clock.waitUntil(sleepCalls: 1, sleepers: 1) })
        for _ in 0..<(Rehearsal.countInBeats + 2) { #expect(await tick(clock)) }
        #expect(rehearsal(store)?.phase == .finished)

        // When one more second passes
        let ticks = interceptor.stateChanges.count
        clock.advance(by: .seconds(1))

        // Then the timer, reading the current state before it ticks, stops: no tick, nothing sleeps, every effect ends
        #expect(await Fixtures.within { await clock.waitUntil(sleepCalls: 0, sleepers: 0) })
        try await store.waitForEffects(timeout: .seconds(10))
        #expect(interceptor.stateChanges.count == ticks)
    }

    @Test func poppingTheRehearsalStopsItsTimer() async throws {
        let clock = ScriptedClock()
        let (store, _) = rehearsing(on: clock)
        store.dispatch(.path(.element(id: 2, action: .rehearsal(.startTapped))))
        #expect(await Fixtures.within { await clock.waitUntil(sleepCalls: 1, sleepers: 1) })
        store.dispatch(.path(.popFrom(id: 1)))
        #expect(await Fixtures.within { await clock.waitUntil(sleepCalls: 1, sleepers: 0) })
        try await store.waitForEffects(timeout: .seconds(10))
        #expect(store.state.path.ids.isEmpty)
    }
}
