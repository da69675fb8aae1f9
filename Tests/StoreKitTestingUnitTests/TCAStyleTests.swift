import Foundation
import SampleFeatures
import StoreKitCore
import StoreKitTesting
import Testing

/// The Composable Architecture's exhaustive TestStore: send and receive with expected mutations.
@Suite struct TCAStyleTests {
    @Test func aMatchStoryWithEffects() async {
        // Given a scoreboard whose score server answers with receipt 7
        let store = TestStore(
            initialState: Scoreboard.State(), reducer: Scoreboard.reducer,
            effects: [Scoreboard.postScore(to: StubScoreServer(receipt: 7))])

        // When Ada scores, then the score changes and the effect's answer arrives
        await store.send(.homeScored(points: 1, scorer: "Ada")) {
            $0.home = 1
            $0.scorers = ["Ada"]
        }
        await store.receive(.scorePosted(receipt: 7)) { $0.lastReceipt = 7 }

        // When the match is reset, then everything is back to zero
        await store.send(.reset) { $0 = Scoreboard.State() }
        await store.finish(timeout: .seconds(60))  // generous: the machine may be busy; it returns as soon as effects end
    }

    @Test func aWrongExpectationFailsWithAMinusPlusDiff() async {
        // Given a test store that collects failures instead of failing this test
        let failures = FailureCollector()
        let store = TestStore(initialState: Todos.State(), reducer: Todos.reducer, reportFailure: failures.report)
        await store.send(.addTodo(id: TodoFixtures.milk, title: "Milk", createdAt: TodoFixtures.date)) {
            $0.todos = [Todos.Todo(id: TodoFixtures.milk, title: "Milk", createdAt: TodoFixtures.date)]
        }

        // When the test asserts the wrong mutation for a toggle
        let sendLine: UInt = #line + 1
        await store.send(.toggleCompleted(id: TodoFixtures.milk)) { _ in }

        // Then the failure shows the -/+ diff at the todo's isComplete, at this line
        #expect(failures.failures.count == 1)
        let failure = failures.failures.first
        #expect(
            failure?.message == """
                step 2: state after send(toggleCompleted(id: 00000000-0000-0000-0000-000000000001)) is not what was asserted (- expected, + actual):
                  {
                    "filter": "all",
                    "todos": [
                      {
                        "createdAt": 2026-11-18T11:06:40.000Z,
                        "id": "00000000-0000-0000-0000-000000000001",
                -       "isComplete": false,
                +       "isComplete": true,
                        "tags": [],
                        "title": "Milk"
                      }
                    ]
                  }
                1 difference: todos[id: 00000000-0000-0000-0000-000000000001].isComplete  false -> true
                """)
        #expect(failure?.line == sendLine)
        #expect(failure?.step == 2)
        let file = failure.map { "\($0.filePath)" } ?? ""
        #expect(file.hasSuffix("TCAStyleTests.swift"))
    }

    @Test func anUnreceivedEffectActionFailsAtFinish() async {
        let failures = FailureCollector()
        let store = TestStore(
            initialState: Scoreboard.State(), reducer: Scoreboard.reducer,
            effects: [Scoreboard.postScore(to: StubScoreServer(receipt: 9))], reportFailure: failures.report)
        await store.send(.awayScored(points: 3, scorer: "Ken")) {
            $0.away = 3
            $0.scorers = ["Ken"]
        }
        await store.finish(timeout: .seconds(60))
        #expect(
            failures.failures.map(\.message) == [
                "after step 2: 1 action dispatched by effects was never received: step 2 scorePosted(receipt: 9)"
            ])
    }

    @Test func anUnassertedStateChangeFails() async {
        let failures = FailureCollector()
        let store = TestStore(initialState: Counter.State(), reducer: Counter.reducer, reportFailure: failures.report)
        await store.send(.increment)
        #expect(
            failures.failures.first?.message.hasPrefix(
                "step 1: state changed after send(increment), but no change was asserted") == true)
    }
}
