import Foundation
import StoreKitTestFixtures
import StoreKitCore
import StoreKitReplay
import StoreKitTesting
import Testing

/// Golden assertions rerun a store's replayable effects against the golden's recorded inputs: an effect that sends
/// otherwise fails the test with the text `replay-cli diff` prints, and record mode does not paper over it.
@Suite struct GoldenEffectTests {
    /// Writes a golden of two posted scores, runs `body` with its path, and removes it.
    private func withGolden(_ body: (String) throws -> Void) throws {
        let directory = "/tmp/skr-golden-effects-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/posting.jsonl"
        try Data(ScorePosting.session(scores: [2, 3]).ndjson).write(to: URL(fileURLWithPath: path))
        try body(path)
    }

    private func store(breakingOn broken: Int? = nil) -> ReplayableStore {
        ReplayableStore(id: "posting", reducer: ScorePosting.reducer, effects: [ScorePosting.postScore(breakingOn: broken)])
    }

    @Test func aGoldenWhoseEffectsSendAsRecordedPasses() throws {
        try withGolden { path in
            let report = try assertReplayMatches(session: path, stores: [store()], record: .never)
            #expect(report.effects.actionsEqual == 2)
        }
    }

    @Test func anEffectThatSendsAnotherActionFailsWithTheCLIsExplanation() throws {
        try withGolden { path in
            // Given an effect that now adds one to the receipt it sends for the first score
            let broken = store(breakingOn: 2)

            // When the golden is asserted
            var thrown: GoldenReplayError?
            do {
                try assertReplayMatches(session: path, stores: [broken], record: .never, artifacts: "\(path).artifacts")
            } catch let error as GoldenReplayError {
                thrown = error
            }

            // Then the failure is the report's explanation, as the CLI prints it, and the artifacts line
            let failure = try #require(thrown).description
            let explanation = ReplayEngine(stores: [broken]).replay(try Session(contentsOf: path)).explanation(source: path)
            #expect(failure.hasPrefix(explanation + "\nartifacts: "), "\(failure)")
            #expect(
                explanation.split(separator: "\n").dropFirst().prefix(4).joined(separator: "\n") == """
                    effect diverged at step 2 of 4: "post score", started by step 1 scored(2)
                      the effect sent another action (- recorded at step 2, + sent)
                      - posted(receipt: 1002)
                      + posted(receipt: 1003)
                    """)
        }
    }

    @Test func recordModeDoesNotRerecordAnEffectDivergence() throws {
        try withGolden { path in
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            var thrown: GoldenReplayError?
            do {
                try assertReplayMatches(
                    session: path, stores: [store(breakingOn: 2)], record: .failed, artifacts: "\(path).artifacts")
            } catch let error as GoldenReplayError {
                thrown = error
            }
            let failure = try #require(thrown).description
            #expect(failure.hasPrefix("did not re-record golden \(path) (record mode 'failed'): a rerun effect did otherwise"))
            #expect(failure.contains("\neffect diverged at step 2 of 4: \"post score\""))
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        }
    }
}
