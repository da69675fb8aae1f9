import SampleFeatures

// The README's "Golden replay tests" and the first test of docs/testing.md; it runs, against a copy of the sample
// session in Goldens/.
// snippet: golden-replay-test
import StoreKitReplay
import StoreKitTesting
import Testing

@Test func todosSessionStillReplays() throws {
    // Tests/MyFeaturesTests/Goldens/todos-basic.jsonl: relative to this test file's folder
    try assertReplayMatches(session: "Goldens/todos-basic.jsonl",
                            stores: [ReplayableStore(id: "todos", reducer: Todos.reducer)])
}
// snippet end
