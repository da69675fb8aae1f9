import Foundation
import SampleFeatures
import StoreKitCore
import StoreKitReplay
import StoreKitTesting
import Testing

/// A feature whose reducer draws a fresh id on every visit, as one that calls `UUID()` would.
private enum Visits {
    struct State: Codable, Equatable, Sendable {
        var count = 0
        var lastVisit = ""
    }

    enum Action: Codable, Equatable, Sendable {
        case visit
    }

    static let reducer = Reducer<State, Action> { state, _ in
        state.count += 1
        state.lastVisit = UUID().uuidString
    }
}

@Suite struct GoldenIgnoringTests {
    private func withGoldenPath(_ body: (String) throws -> Void) throws {
        let directory = "/tmp/skr-ignoring-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try body("\(directory)/golden.jsonl")
    }

    @Test func aGoldenWithAVolatileValueMatchesWhenItIsIgnored() throws {
        try withGoldenPath { path in
            // Given a golden recorded from a reducer that draws random ids
            _ = #expect(throws: GoldenReplayError.self) {
                try assertGolden(
                    path, storeID: "visits", initialState: Visits.State(), reducer: Visits.reducer,
                    actions: [.visit, .visit], record: .missing)
            }
            let stores = [ReplayableStore(id: "visits", reducer: Visits.reducer)]

            // Then replaying it diverges on the id, unless the id is ignored
            #expect(throws: GoldenReplayError.self) { try assertReplayMatches(session: path, stores: stores, record: .never) }
            let report = try assertReplayMatches(session: path, stores: stores, ignoring: ["lastVisit"], record: .never)
            #expect(report.ignored.map(\.steps) == [2])
            try assertGolden(
                path, storeID: "visits", initialState: Visits.State(), reducer: Visits.reducer, actions: [.visit, .visit],
                ignoring: ["lastVisit"], record: .never)
        }
    }

    @Test func aScriptWithFreshIdsIsTheSameScriptWhenTheIdsAreIgnored() throws {
        try withGoldenPath { path in
            func script() -> [Todos.Action] {
                [.addTodo(id: UUID(), title: "Milk", createdAt: Date(timeIntervalSince1970: 0))]
            }
            _ = #expect(throws: GoldenReplayError.self) {
                try assertGolden(
                    path, storeID: Todos.storeID, initialState: Todos.State(), reducer: Todos.reducer, actions: script(),
                    record: .missing)
            }
            let error = #expect(throws: GoldenReplayError.self) {
                try assertGolden(
                    path, storeID: Todos.storeID, initialState: Todos.State(), reducer: Todos.reducer, actions: script(),
                    record: .never)
            }
            #expect(error?.description.contains("the test's actions differ from the golden's at step 1") == true)
            try assertGolden(
                path, storeID: Todos.storeID, initialState: Todos.State(), reducer: Todos.reducer, actions: script(),
                ignoring: ["addTodo.id", "todos[*].id"], record: .never)
        }
    }

    @Test func aBadPatternFailsNamingIt() {
        let error = #expect(throws: GoldenReplayError.self) {
            try assertReplayMatches(session: "/nonexistent.jsonl", stores: [], ignoring: ["a[*"], record: .never)
        }
        #expect(error?.description == "ignoring: bad path pattern 'a[*' at character 2: '[' is never closed with ']'")
    }
}
