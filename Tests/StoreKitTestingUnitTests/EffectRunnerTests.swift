import SampleFeatures
import StoreKitCore
import StoreKitTesting
import Testing

/// Timed actions in, timed states out, with the effects running on a test clock.
@Suite struct EffectRunnerTests {
    private static let start = Stack.Action.path(.element(id: 1, action: .startTapped))
    private static let stop = Stack.Action.path(.element(id: 1, action: .stopTapped))
    private static let tick = Stack.Action.path(.element(id: 1, action: .timerTick))

    @Test func aTimerStartedAndStoppedTicksAtEachSecondBetween() async {
        // Given a runner over a feature whose timer sleeps on the test clock
        let clock = TestClock()
        let runner = EffectRunner(
            initialState: Stack.State(), reducer: Stack.reducer, effects: Stack.effects(clock: clock), clock: clock)

        // When a rehearsal is pushed and its timer started at once, then stopped after 3.5 seconds
        let run = await runner.run([
            Timed(at: .zero, .push(id: 1, title: "Scales")), Timed(at: .zero, Self.start),
            Timed(at: .milliseconds(3500), Self.stop),
        ])

        // Then the timer ticked at 1, 2 and 3 seconds, each state at its time, and nothing was left running
        #expect(
            run.actions == [
                Timed(at: .zero, .push(id: 1, title: "Scales")), Timed(at: .zero, Self.start),
                Timed(at: .seconds(1), Self.tick), Timed(at: .seconds(2), Self.tick), Timed(at: .seconds(3), Self.tick),
                Timed(at: .milliseconds(3500), Self.stop),
            ])
        #expect(run.states.map { $0.value.path[1]?.ticks } == [0, 0, 1, 2, 3, 3])
        #expect(run.states.map(\.time) == run.actions.map(\.time))
        #expect(run.cancelled.isEmpty)
    }

    @Test func aTimerStillRunningAtTheEndIsCancelledAndNamed() async {
        let clock = TestClock()
        let runner = EffectRunner(
            initialState: Stack.State(), reducer: Stack.reducer, effects: Stack.effects(clock: clock), clock: clock)
        let run = await runner.run(
            [Timed(at: .zero, .push(id: 1, title: "Scales")), Timed(at: .zero, Self.start)], until: .seconds(2))
        #expect(run.actions.map(\.time) == [.zero, .zero, .seconds(1), .seconds(2)])
        #expect(run.cancelled.map(\.name) == ["timer"])
        #expect(run.cancelled.map(\.sequence) == [2])
        #expect(clock.sleeperCount == 0)
    }

    @Test func statesAfterActionsIncludeWhatTheEffectsSent() async {
        let clock = TestClock()
        let runner = EffectRunner(
            initialState: Scoreboard.State(), reducer: Scoreboard.reducer,
            effects: [Scoreboard.postScore(to: StubScoreServer(receipt: 4))], clock: clock)
        let states = await runner.states(after: [.homeScored(points: 2, scorer: "Ada")])
        #expect(states.map(\.home) == [2, 2])
        #expect(states.map(\.lastReceipt) == [nil, 4])
    }
}
