import Foundation
import SampleReplayStores
import StoreKitCore
import StoreKitReplay
import StoreKitTesting
import Testing

/// The golden assertions take `identity:` as `.replay.json` does: a divergence's diff matches the elements of the
/// arrays it names by that member. Without it, the member that holds an `Identifiable` element's id is found when
/// the replayed state is encoded, and a key given wins over it.
@Suite struct GoldenIdentityTests {
    /// A golden of the ReSwift-style todo list adding a third todo, recorded with its correct reducer.
    private func withToDoGolden(_ body: (String) throws -> Void) throws {
        let directory = "/tmp/skr-identity-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/golden.jsonl"
        let initial = ToDoList.State(todos: [ToDoList.ToDo(toDoID: "t1", title: "Milk"), ToDoList.ToDo(toDoID: "t2", title: "Eggs")])
        _ = #expect(throws: GoldenReplayError.self) {
            try assertGolden(
                path, storeID: ToDoList.storeID, initialState: initial, reducer: ToDoList.reducer,
                actions: [.add(toDoID: "t3", title: "Tea")], record: .missing)
        }
        try body(path)
    }

    @Test func aWrongInsertIsOneMoveWithOrWithoutTheIdentityKeyAndAKeyGivenWins() throws {
        try withToDoGolden { path in
            // When the golden replays through a reducer that inserts first: with the key, without it, and with a
            // key naming another member than the one ToDo's `id` returns
            func failure(_ identity: [String: String]) -> String {
                let error = #expect(throws: GoldenReplayError.self) {
                    try assertReplayMatches(
                        session: path, stores: SampleStores.withToDoInsertRegression, identity: identity,
                        record: .never, artifacts: path + ".artifacts")
                }
                return error?.description ?? ""
            }
            let withKey = failure(["todos": "toDoID"])
            let withoutKey = failure([:])
            let withOtherKey = failure(["todos": "title"])

            // Then with or without the key the failure is one moved todo (without it, ToDo's `id` is found to be
            // `toDoID` when the replayed state is encoded), and the key given wins over the member found
            #expect(withKey.contains("1 difference: todos[id: t3]  moved from 2 to 0"), "\(withKey)")
            #expect(withoutKey.contains("1 difference: todos[id: t3]  moved from 2 to 0"), "\(withoutKey)")
            #expect(withOtherKey.contains("1 difference: todos[id: Tea]  moved from 2 to 0"), "\(withOtherKey)")
        }
    }

    @Test func aKeyNamingNoArrayIsAWarningInTheFailure() throws {
        try withToDoGolden { path in
            let error = #expect(throws: GoldenReplayError.self) {
                try assertReplayMatches(
                    session: path, stores: SampleStores.withToDoInsertRegression, identity: ["todoz": "toDoID"],
                    record: .never, artifacts: path + ".artifacts")
            }
            #expect(
                error?.description.contains(
                    "warning: identity: identity 'todoz' names no array in the states compared; no element was matched by 'toDoID' there")
                    == true, "\(error?.description ?? "")")
        }
    }

    @Test func assertGoldenTakesTheKeyToo() throws {
        try withToDoGolden { path in
            let initial = ToDoList.State(todos: [ToDoList.ToDo(toDoID: "t1", title: "Milk"), ToDoList.ToDo(toDoID: "t2", title: "Eggs")])
            let error = #expect(throws: GoldenReplayError.self) {
                try assertGolden(
                    path, storeID: ToDoList.storeID, initialState: initial, reducer: ToDoList.reducerInsertingFirst,
                    actions: [.add(toDoID: "t3", title: "Tea")], identity: ["todos": "toDoID"], record: .never,
                    artifacts: path + ".artifacts")
            }
            #expect(error?.description.contains("1 difference: todos[id: t3]  moved from 2 to 0") == true, "\(error?.description ?? "")")
        }
    }
}
