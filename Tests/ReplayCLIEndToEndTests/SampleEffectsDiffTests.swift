import Foundation
import Testing

/// `replay-cli diff` through the samples' host reruns the samples' replayable effects (the scoreboard's post-score
/// effect, the rehearsal timer) against the inputs their goldens recorded, and finds an effect regression.
@Suite struct SampleEffectsDiffTests {
    @Test(arguments: [
        ("scoreboard-match.jsonl", "match: 78 states and 38 effect actions equal ("),
        ("rehearsals-week.jsonl", "match: 90 states and 23 effect actions equal ("),
        ("rehearsals-journey.jsonl", "match: 320 states and 104 effect actions equal ("),
    ])
    func aSampleSessionWithEffectsIsAMatchThatComparedTheEffectActions(_ name: String, _ verdict: String) async throws {
        // When a golden recorded with replayable effects is replayed through the samples' host
        let outcome = try await CLI.run(["diff", CLI.session(name), "--no-build"])

        // Then it is a match whose report says every effect action was compared, and how many runs and recorded
        // inputs that took
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        let line = outcome.stdout.split(separator: "\n").dropFirst().first.map(String.init) ?? ""
        #expect(line.hasPrefix(verdict) && line.contains(" effect runs replayed from "), "\(outcome.stdout)")
        #expect(!line.contains("not checked"), "\(outcome.stdout)")
    }

    @Test func anEffectRegressionExitsOneNamingTheStepTheEffectAndTheAction() async throws {
        // Given the samples' host with a post-score effect that words a failed post in its own message
        let session = CLI.session("scoreboard-match.jsonl")
        let outcome = try await CLI.run(["diff", session, "--no-build"], environment: ["SAMPLE_HOST_REGRESSION": "score-post"])

        // Then diff exits 1 at the first refused post (step 10, sent by the effect of step 9), naming the effect and
        // showing the recorded action (-) beside the one the effect sent (+)
        #expect(outcome.status == 1, "\(outcome.stderr)")
        var lines = outcome.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let host = lines.count >= 2 ? lines.remove(at: lines.count - 2) : ""
        #expect(host.hasPrefix("replayed through \(CLI.sampleHost) (built "), "\(outcome.stdout)")
        #expect(
            lines.joined(separator: "\n") == """
                \(session): store "scoreboard", 78 actions, recorded by SampleApp 1.0 (build 1) on 2026-11-26
                effect diverged at step 10 of 78: "post score", started by step 9 homeScored(points: 1, scorer: "Linus")
                  the effect sent another action (- recorded at step 10, + sent)
                  - postFailed(reason: "server busy (HTTP 503)")
                  + postFailed(reason: "could not post the score: server busy (HTTP 503)")
                    {
                      "postFailed": {
                  -     "reason": "server busy (HTTP 503)"
                  +     "reason": "could not post the score: server busy (HTTP 503)"
                      }
                    }
                  7 effect runs diverged, at steps 10, 20, 30, 40, 50, 60, 72

                """)
    }

    @Test func aReducerRegressionInTheRehearsalIsStillAStateDivergenceAtItsStep() async throws {
        // Given the samples' host whose rehearsal no longer moves on to the next song, and the journey's timer rerun
        let outcome = try await CLI.run(
            ["diff", CLI.session("rehearsals-journey.jsonl"), "--no-build"], environment: ["SAMPLE_HOST_REGRESSION": "rehearsal-advance"])

        // Then the first difference is still the state after the tick that should have moved on, as before effects
        // were rerun
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("\ndiverged at step 68 of 320\n"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("-               \"songIndex\": 1,"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("+               \"songIndex\": 0,"), "\(outcome.stdout)")
        #expect(!outcome.stdout.contains("effect diverged"), "\(outcome.stdout)")
    }
}
