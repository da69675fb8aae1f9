import Foundation
import SampleFeatures
import StoreKitTesting
import Testing

/// The todo's id in docs/testing.md's snapshot test.
private let id = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!
/// The todo's creation date in docs/testing.md's snapshot test.
private let date = Date(timeIntervalSince1970: 1_795_000_000)

// docs/testing.md's snapshot form of a golden test; it runs, against Goldens/add-and-toggle.jsonl.
// snippet: golden-snapshot-test
@Test func addingAndTogglingTodos() throws {
    try assertGolden("Goldens/add-and-toggle.jsonl", storeID: "todos", initialState: Todos.State(),
                     reducer: Todos.reducer, actions: [.addTodo(id: id, title: "Milk", createdAt: date), .toggleCompleted(id: id)])
}
// snippet end
