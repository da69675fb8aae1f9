import Foundation
import SampleFeatures
import StoreKitTestFixtures
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

/// A recorded session of format 2 shows, step by step, what the effects took from the outside world, and replays
/// its effects when given them.
@Suite struct RecordedSessionEffectTests {
    @Test func eachStepListsTheInputsAndEndsOfTheRunsItStarted() throws {
        let recording = try RecordedSession<ScorePosting.State, ScorePosting.Action>(ScorePosting.session(scores: [2, 3]))
        #expect(recording.steps.map(\.effect) == [nil, "post score", nil, "post score"])
        #expect(recording.steps[0].calls.map(\.name) == ["score.post"])
        #expect(recording.steps[0].calls.first?.result == .value(.integer(1002)))
        #expect(recording.steps[2].calls.map(\.input) == [.integer(3)])
        #expect(recording.steps[1].calls.isEmpty)
        #expect(recording.steps.map { $0.effectEnds.map(\.outcome) } == [[.finished], [], [.finished], []])
    }

    @Test func assertReplaysRerunsTheEffectsAndFailsWhenOneSendsOtherwise() throws {
        let recording = try RecordedSession<ScorePosting.State, ScorePosting.Action>(ScorePosting.session(scores: [2, 3]))
        try recording.assertReplays(with: ScorePosting.reducer, effects: [ScorePosting.postScore()])
        #expect(throws: GoldenReplayError.self) {
            try recording.assertReplays(with: ScorePosting.reducer, effects: [ScorePosting.postScore(breakingOn: 3)])
        }
    }
}
