import Foundation
import Testing

/// Every command shows a format 2 session's effect lines and an effect divergence: `log` (text, `--json`,
/// `--follow`), `stats`, `verify`, and through a host with a replayable effect `diff`, `check` (its lines, JUnit and
/// summary) and `report`. The host is a fake that prints what a real one answers (`Tests/Sessions/*.answer`, kept
/// equal to the replay engine's answer by `EffectHostAnswersTests`): the samples' host has no replayable effect.
@Suite struct EffectLinesTests {
    static let sessions = CLI.packageRoot.appendingPathComponent("Tests/Sessions")
    static let formatTwo = sessions.appendingPathComponent("board-effects.jsonl").path
    static let formatOne = sessions.appendingPathComponent("board-format1.jsonl").path

    /// A host that reads its request and prints `answer`.
    private func fakeHost(answering answer: String, in scratch: Scratch) throws -> String {
        let answers = Self.sessions.appendingPathComponent(answer).path
        return try scratch.write("host.sh", "#!/bin/sh\ncat > /dev/null\ncat '\(answers)'\n", executable: true)
    }

    @Test func theHandWrittenSessionsAreValid() async throws {
        for session in [Self.formatTwo, Self.formatOne] {
            let outcome = try await CLI.run(["verify", session])
            #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        }
    }

    static let logText = """
        session board-effects, store "board", ScoreApp 1.0, started 2026-11-26T10:00:00.000Z
             1     0.100s  app              1 change     scored
                   0.110s  call                          step 1 effect 'post score' call 0: score.post(2) -> 1002
             2     0.120s  effect of 1      1 change     posted
                   0.130s  effect end                    step 1 effect 'post score' finished: 1 call, 1 action sent
             3     0.200s  app              1 change     scored
                   0.210s  call                          step 3 effect 'post score' call 0: score.post(3) threw PostError: offline
             4     0.220s  effect of 3      1 change     failed
                   0.230s  effect end                    step 3 effect 'post score' finished: 1 call, 1 action sent
             - end: finished after 0.300 s, 4 actions, 0 dropped

        """

    @Test func logShowsCallsAndEffectEndsBetweenTheActions() async throws {
        let outcome = try await CLI.run(["log", Self.formatTwo])
        #expect(outcome.status == 0)
        #expect(outcome.stdout == Self.logText)
    }

    @Test func logFollowShowsTheSameLines() async throws {
        let outcome = try await CLI.run(["log", "--follow", Self.formatTwo], timeout: 60)
        #expect(outcome.status == 0)
        #expect(outcome.stdout == Self.logText)
    }

    @Test func anEffectsLinesFollowTheActionThatStartedItsRunThroughTheFilters() async throws {
        // Given a filter that lists step 3 and not step 1
        let outcome = try await CLI.run(["log", "--from", "3", Self.formatTwo])

        // Then the lines of step 3's run are listed, and those of step 1's are not
        #expect(
            outcome.stdout == """
                session board-effects, store "board", ScoreApp 1.0, started 2026-11-26T10:00:00.000Z
                     3     0.200s  app              1 change     scored
                           0.210s  call                          step 3 effect 'post score' call 0: score.post(3) threw PostError: offline
                     4     0.220s  effect of 3      1 change     failed
                           0.230s  effect end                    step 3 effect 'post score' finished: 1 call, 1 action sent
                     - end: finished after 0.300 s, 4 actions, 0 dropped

                """)
    }

    @Test func logJSONHasTheLinesFields() async throws {
        let outcome = try await CLI.run(["log", "--json", "--to", "2", Self.formatTwo])
        #expect(outcome.status == 0)
        #expect(
            outcome.stdout == """
                LOG_JSON

                """)
    }

    @Test func logFollowJSONHasOneObjectPerLine() async throws {
        let outcome = try await CLI.run(["log", "--follow", "--json", "--from", "3", Self.formatTwo], timeout: 60)
        #expect(
            outcome.stdout == """
                FOLLOW_JSON

                """)
    }

    @Test func statsCountsEachEffectsLines() async throws {
        let outcome = try await CLI.run(["stats", Self.formatTwo])
        #expect(outcome.status == 0)
        #expect(
            outcome.stdout.replacingOccurrences(of: Self.sessions.path, with: "<sessions>") == """
                STATS_TEXT

                """)
    }
}
