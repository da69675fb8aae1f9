import Foundation
import SampleReplayStores
import StoreKitCore
import StoreKitTesting
import Testing

/// A stack with rehearsal 1 pushed, on a clock that never moves unless the test advances it.
private func stackStore(
    _ failures: FailureCollector, clock: TestClock = TestClock(), exhaustivity: Exhaustivity = .on
) async -> TestStore<Stack.State, Stack.Action> {
    let store = TestStore(
        initialState: Stack.State(), reducer: Stack.reducer, effects: Stack.effects(clock: clock),
        exhaustivity: exhaustivity, receiveTimeout: .seconds(60), reportFailure: failures.report)
    await store.send(.push(id: 1, title: "Intro")) { $0.path[1] = Rehearsal.State(title: "Intro") }
    return store
}

@Suite struct TestStoreTests {
    @Test func aFailureNamesTheStepAndPrintsTheActionCompactly() async {
        // Given a nested feature
        let failures = FailureCollector()
        let store = await stackStore(failures)

        // When step 2's assertion is wrong
        let line: UInt = #line + 1
        await store.send(.path(.element(id: 1, action: .renamed("Verse")))) { $0.path[1]?.title = "Chorus" }

        // Then the failure names step 2, prints the action as Swift source writes it, at the send's line
        #expect(
            failures.failures.map(\.message) == [
                #"""
                step 2: state after send(path(.element(id: 1, action: .renamed("Verse")))) is not what was asserted (- expected, + actual):
                  {
                    "log": [],
                    "path": {
                      "1": {
                        "isSaved": false,
                        "ticks": 0,
                -       "title": "Chorus"
                +       "title": "Verse"
                      }
                    }
                  }
                1 difference: path["1"].title  "Chorus" -> "Verse"
                """#
            ])
        #expect(failures.failures.map(\.line) == [line])
        #expect(failures.failures.map(\.step) == [2])
    }

    @Test func receivesByCaseAndByPredicate() async {
        let failures = FailureCollector()
        let store = await stackStore(failures)

        // When a save is sent twice, then each answer is received by case, then by predicate
        await store.send(.path(.element(id: 1, action: .saveTapped))) { $0.log = ["saving 1"] }
        await store.receive(Stack.Action.path) { $0.path[1]?.isSaved = true }
        await store.send(.path(.element(id: 1, action: .saveTapped))) { $0.log.append("saving 1") }
        await store.receive(where: { action in
            if case .path(.element(id: 1, action: .saved)) = action { return true }
            return false
        })
        await store.finish(timeout: .seconds(60))
        #expect(failures.failures.map(\.message) == [])
    }

    @Test func aReceivedActionOfAnotherCaseFailsNamingBoth() async {
        let failures = FailureCollector()
        let store = await stackStore(failures)
        await store.send(.path(.element(id: 1, action: .saveTapped))) { $0.log = ["saving 1"] }
        await store.receive(Stack.Action.push)
        #expect(
            failures.failures.map(\.message) == [
                """
                step 3: received an unexpected action
                  - expected  an action of the case taking (Int, String)
                  + received  path(.element(id: 1, action: .saved(receipt: 7)))
                """
            ])
    }

    @Test func aReceiveTimeoutIsRecordedAtItsLineWithTheConfiguredTimeout() async {
        // Given a store whose receive timeout is short, and nothing an effect will send
        let failures = FailureCollector()
        let store = await stackStore(failures)
        store.receiveTimeout = .milliseconds(50)

        // When the test expects an action
        let line: UInt = #line + 1
        await store.receive(.path(.element(id: 1, action: .timerTick)))

        // Then it fails at that line, after step 1, instead of throwing
        #expect(
            failures.failures.map(\.message) == [
                "after step 1: expected to receive path(.element(id: 1, action: .timerTick)) within 0.05 seconds, "
                    + "but no action arrived"
            ])
        #expect(failures.failures.map(\.line) == [line])
    }

    @Test func finishNamesAnEffectThatNeverEndsInsteadOfHanging() async {
        // Given a timer started on a clock that never moves
        let failures = FailureCollector()
        let store = await stackStore(failures)
        await store.send(.path(.element(id: 1, action: .startTapped)))

        // When the test finishes without stopping it
        await store.finish(timeout: .milliseconds(100))

        // Then finish fails naming the timer and the step that started it (and cancels it, so it returns)
        #expect(
            failures.failures.map(\.message) == [
                #"after step 2: effect still running after 0.1 seconds: "timer" started by step 2 path(.element(id: 1, action: .startTapped))"#
            ])
    }

    @Test func aTimerTicksOnTheTestClockUntilStopped() async {
        let failures = FailureCollector()
        let clock = TestClock()
        let store = await stackStore(failures, clock: clock)
        await store.send(.path(.element(id: 1, action: .startTapped)))
        for tick in 1...3 {
            await clock.advance(by: .seconds(1))
            await store.receive(.path(.element(id: 1, action: .timerTick))) { $0.path[1]?.ticks = tick }
        }
        await store.send(.path(.element(id: 1, action: .stopTapped)))
        await clock.advance(by: .seconds(5))
        await store.finish(timeout: .seconds(60))
        #expect(failures.failures.map(\.message) == [])
    }

    @Test func nonExhaustiveAllowsUnassertedChangesAndUnreceivedActions() async {
        let failures = FailureCollector()
        let store = await stackStore(failures, exhaustivity: .off)
        await store.send(.path(.element(id: 1, action: .renamed("Verse"))))
        await store.send(.path(.element(id: 1, action: .saveTapped))) { $0.log = ["saving 1"] }
        await store.send(.path(.element(id: 1, action: .saveTapped)))
        await store.finish(timeout: .seconds(60))
        #expect(failures.failures.map(\.message) == [])
    }

    @Test func nonExhaustiveStillFailsForAWrongAssertion() async {
        let failures = FailureCollector()
        let store = await stackStore(failures, exhaustivity: .off)
        await store.send(.path(.element(id: 1, action: .renamed("Verse")))) { $0.path[1]?.ticks = 4 }
        #expect(failures.failures.count == 1)
        #expect(
            failures.failures.first?.message.hasPrefix(
                #"step 2: state after send(path(.element(id: 1, action: .renamed("Verse")))) is not what was asserted"#)
                == true)
        #expect(failures.failures.first?.message.hasSuffix(#"1 difference: path["1"].ticks  4 -> 0"#) == true)
    }

    @Test func nonExhaustiveReceiveSkipsToTheMatchingAction() async {
        let failures = FailureCollector()
        let clock = TestClock()
        let store = await stackStore(failures, clock: clock, exhaustivity: .off)
        await store.send(.path(.element(id: 1, action: .startTapped)))
        await clock.advance(by: .seconds(1))
        await store.send(.path(.element(id: 1, action: .saveTapped)))
        await store.receive(.path(.element(id: 1, action: .saved(receipt: 7)))) { $0.path[1]?.isSaved = true }
        await store.send(.path(.element(id: 1, action: .stopTapped)))
        await store.finish(timeout: .seconds(60))
        #expect(failures.failures.map(\.message) == [])
    }

    @Test func nonExhaustiveListsWhatItSkippedAsNotesWhenAsked() async {
        let failures = FailureCollector()
        let store = await stackStore(failures, exhaustivity: .off(showSkippedAssertions: true))
        await store.send(.path(.element(id: 1, action: .saveTapped)))
        await store.finish(timeout: .seconds(60))
        #expect(failures.failures.map(\.severity) == [.note, .note])
        #expect(
            failures.failures.map(\.message) == [
                """
                step 2: state after send(path(.element(id: 1, action: .saveTapped))) changed beyond what was asserted (- asserted, + actual):
                  {
                    "log": [
                +     "saving 1"
                    ],
                    ... (1 unchanged)
                  }
                1 difference: log[0]  (absent) -> "saving 1"
                """,
                "after step 3: skipped received step 3 path(.element(id: 1, action: .saved(receipt: 7)))",
            ])
    }

    @Test func skipReceivedActionsAcceptsWhatEffectsSent() async {
        let failures = FailureCollector()
        let store = await stackStore(failures)
        await store.send(.path(.element(id: 1, action: .saveTapped))) { $0.log = ["saving 1"] }
        await store.skipReceivedActions()
        #expect(store.state.path[1]?.isSaved == true)
        await store.send(.path(.element(id: 1, action: .renamed("Verse")))) { $0.path[1]?.title = "Verse" }
        await store.finish(timeout: .seconds(60))
        #expect(failures.failures.map(\.message) == [])
    }

    @Test func anExhaustiveSendBeforeReceivingFailsNamingTheUnreceived() async {
        let failures = FailureCollector()
        let store = await stackStore(failures)
        await store.send(.path(.element(id: 1, action: .saveTapped))) { $0.log = ["saving 1"] }
        await store.skipReceivedActions()
        await store.send(.path(.element(id: 1, action: .saveTapped))) { $0.log.append("saving 1") }
        await store.finish(timeout: .seconds(60))
        await store.send(.path(.element(id: 1, action: .renamed("Verse")))) { $0.path[1]?.title = "Verse" }
        #expect(
            failures.failures.map(\.message) == [
                "after step 5: 1 action dispatched by effects was never received: step 5 path(.element(id: 1, action: .saved(receipt: 7)))",
                "step 6: send(path(.element(id: 1, action: .renamed(\"Verse\")))) came before 1 action dispatched by "
                    + "effects was received: step 5 path(.element(id: 1, action: .saved(receipt: 7)))",
            ])
    }
}

/// A feature whose state holds a duration and a date, which a failure must show as the values they are.
private enum Stopwatch {
    struct State: Codable, Equatable, Sendable {
        var elapsed: Duration = .zero
        var startedAt: Date?
    }

    enum Action: Codable, Equatable, Sendable {
        case start(Date)
        case tick
    }

    static let reducer = Reducer<State, Action> { state, action in
        switch action {
        case .start(let date): state.startedAt = date
        case .tick: state.elapsed += .seconds(1)
        }
    }
}

@Suite struct TestStoreReadableValuesTests {
    @Test func aFailureShowsDurationsInSecondsAndDatesAsISO8601() async {
        let failures = FailureCollector()
        let store = TestStore(
            initialState: Stopwatch.State(), reducer: Stopwatch.reducer, reportFailure: failures.report)

        await store.send(.start(Date(timeIntervalSince1970: 1_795_000_000))) {
            $0.startedAt = Date(timeIntervalSince1970: 1_795_000_001)
        }
        await store.send(.tick) { $0.elapsed = .milliseconds(1500) }

        #expect(
            failures.failures.map { $0.message.split(separator: "\n").last.map(String.init) ?? "" } == [
                "1 difference: startedAt  2026-11-18T11:06:41.000Z -> 2026-11-18T11:06:40.000Z",
                "1 difference: elapsed  1.5 s -> 1 s",
            ])
    }
}

@Suite struct TestStoreIdentityTests {
    @Test func aWrongInsertIsOneMovedTodoWithoutAnyKey() async {
        // Given a todo list whose reducer inserts a new todo first, identified by `toDoID` through `Identifiable`
        let failures = FailureCollector()
        let initial = ToDoList.State(todos: [ToDoList.ToDo(toDoID: "t1", title: "Milk"), ToDoList.ToDo(toDoID: "t2", title: "Eggs")])
        let store = TestStore(initialState: initial, reducer: ToDoList.reducerInsertingFirst, reportFailure: failures.report)

        // When the test asserts it is added last
        await store.send(.add(toDoID: "t3", title: "Tea")) { $0.todos.append(ToDoList.ToDo(toDoID: "t3", title: "Tea")) }

        // Then the failure is the one todo that moved, not six field changes
        #expect(
            failures.failures.map { $0.message.split(separator: "\n").last.map(String.init) ?? "" } == [
                "1 difference: todos[id: t3]  moved from 2 to 0"
            ])
    }
}
