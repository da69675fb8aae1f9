import SampleFeatures
import StoreKitTesting

/// docs/testing.md's "From a recording to a regression test".
func recordingToRegressionTest() async throws {
    // snippet: testing-recorded-session
    let recording = try RecordedSession<Todos.State, Todos.Action>(contentsOf: "bug-1234.jsonl")
    try recording.assertReplays(with: Todos.reducer)                   // golden form
    let store = recording.testStore(reducer: Todos.reducer)            // or step by step
    for step in recording.steps { await store.send(step.action) { $0 = step.state } }
    // snippet end
}
