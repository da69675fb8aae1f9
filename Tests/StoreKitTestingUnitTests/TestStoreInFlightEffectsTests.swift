import SampleFeatures
import StoreKitCore
import StoreKitTesting
import Testing

/// A test ends or skips effects that never end by themselves, instead of failing at `finish`.
@Suite struct TestStoreInFlightEffectsTests {
    private static let start = Stack.Action.path(.element(id: 1, action: .startTapped))
    private static let tick = Stack.Action.path(.element(id: 1, action: .timerTick))

    /// A store with a rehearsal pushed and its timer ticked once.
    private static func storeWithARunningTimer(
        _ failures: FailureCollector, exhaustivity: Exhaustivity = .on
    ) async -> TestStore<Stack.State, Stack.Action> {
        let clock = TestClock()
        let store = TestStore(
            initialState: Stack.State(), reducer: Stack.reducer, effects: Stack.effects(clock: clock), clock: clock,
            exhaustivity: exhaustivity, reportFailure: failures.report)
        await store.send(.push(id: 1, title: "Scales")) { $0.path[1] = Rehearsal.State(title: "Scales") }
        await store.send(Self.start)
        await clock.advance(by: .seconds(1))
        await store.receive(Self.tick) { $0.path[1]?.ticks = 1 }
        return store
    }

    @Test func aNeverEndingTimerFailsFinishUnlessCancelled() async {
        // Given a timer that never ends, left alone
        let unhandled = FailureCollector()
        await Self.storeWithARunningTimer(unhandled).finish(timeout: .milliseconds(200))
        #expect(unhandled.failures.map(\.message).first?.contains("\"timer\" started by step 2") == true)

        // When the test cancels it before finishing
        let failures = FailureCollector()
        let store = await Self.storeWithARunningTimer(failures)
        await store.cancelInFlightEffects()
        await store.finish()

        // Then nothing fails
        #expect(failures.failures.isEmpty, "\(failures.failures.map(\.message))")
    }

    @Test func skippingNotesTheSkippedEffectsWhenShowingSkippedAssertions() async {
        let failures = FailureCollector()
        let store = await Self.storeWithARunningTimer(failures, exhaustivity: .off(showSkippedAssertions: true))
        await store.skipInFlightEffects(); let line: UInt = #line
        await store.finish()
        #expect(failures.failures.map(\.message) == [#"after step 3: skipped 1 effect still running: "timer" started by step 2 path(.element(id: 1, action: .startTapped))"#])
        #expect(failures.failures.map(\.severity) == [.note])
        #expect(failures.failures.map(\.line) == [line])
    }

    @Test func strictSkippingFailsWhenNoEffectIsRunning() async {
        let failures = FailureCollector()
        let store = TestStore(
            initialState: Stack.State(), reducer: Stack.reducer, reportFailure: failures.report)
        await store.send(.push(id: 1, title: "Scales")) { $0.path[1] = Rehearsal.State(title: "Scales") }
        await store.skipInFlightEffects(strict: false)
        #expect(failures.failures.isEmpty)
        await store.skipInFlightEffects()
        #expect(failures.failures.map(\.message) == ["after step 1: there were no effects running to skip"])
    }
}
