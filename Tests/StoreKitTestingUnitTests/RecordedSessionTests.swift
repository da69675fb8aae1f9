import Foundation
import SampleFeatures
import StoreKitCore
import StoreKitTesting
import Testing

/// From a recording to a regression test in a few lines.
@Suite struct RecordedSessionTests {
    static let todosGolden = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("samples/sessions/todos-basic.jsonl").path

    @Test func aRecordingReplaysAsAGoldenAssertion() throws {
        let recording = try RecordedSession<Todos.State, Todos.Action>(contentsOf: Self.todosGolden)
        #expect(recording.steps.count == 40)
        try recording.assertReplays(with: Todos.reducer)
    }

    @Test func aRecordingBecomesATestStoreScript() async throws {
        // Given the recorded session as typed steps
        let recording = try RecordedSession<Todos.State, Todos.Action>(contentsOf: Self.todosGolden)
        let failures = FailureCollector()
        let store = recording.testStore(reducer: Todos.reducer, reportFailure: failures.report)

        // When every recorded action is sent, expecting the recorded state after it
        for step in recording.steps {
            await store.send(step.action) { $0 = step.state }
        }
        await store.finish()

        // Then the current reducer reproduces every recorded state
        #expect(failures.failures.isEmpty, "\(failures.failures.first?.message ?? "")")
    }
}
