import Foundation
import Testing

/// Every command shows a format 2 session's effect lines and an effect divergence: `log` (text, `--json`,
/// `--follow`), `stats`, `verify`, and through a host with a replayable effect `diff`, `check` (its lines, JUnit and
/// summary) and `report`. The host is a fake that prints what a real one answers (`Tests/Sessions/*.answer`, kept
/// equal to the replay engine's answer by `EffectHostAnswersTests`), so these small hand-written sessions need no store
/// of their own in the samples' host; `SampleEffectsDiffTests` replays the samples' sessions through the real host.
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
             1     0.100s  app              1 change     scored(2)
                   0.110s  call                          step 1 effect 'post score' call 0: score.post(2) -> 1002
             2     0.120s  effect of 1      1 change     posted(receipt: 1002)
                   0.130s  effect end                    step 1 effect 'post score' finished: 1 call, 1 action sent
             3     0.200s  app              1 change     scored(3)
                   0.210s  call                          step 3 effect 'post score' call 0: score.post(3) threw PostError: offline
             4     0.220s  effect of 3      1 change     failed("offline")
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
                     3     0.200s  app              1 change     scored(3)
                           0.210s  call                          step 3 effect 'post score' call 0: score.post(3) threw PostError: offline
                     4     0.220s  effect of 3      1 change     failed("offline")
                           0.230s  effect end                    step 3 effect 'post score' finished: 1 call, 1 action sent
                     - end: finished after 0.300 s, 4 actions, 0 dropped

                """)
    }

    @Test func logJSONHasTheLinesFields() async throws {
        let outcome = try await CLI.run(["log", "--json", "--to", "2", Self.formatTwo])
        #expect(outcome.status == 0)
        try expectGolden(outcome.stdout, "log.json.txt")
    }

    @Test func logFollowJSONHasOneObjectPerLine() async throws {
        let outcome = try await CLI.run(["log", "--follow", "--json", "--from", "3", Self.formatTwo], timeout: 60)
        #expect(outcome.status == 0)
        try expectGolden(outcome.stdout, "log-follow.json.txt")
    }

    @Test func statsCountsEachEffectsLines() async throws {
        let outcome = try await CLI.run(["stats", Self.formatTwo])
        #expect(outcome.status == 0)
        try expectGolden(outcome.stdout.replacingOccurrences(of: Self.sessions.path, with: "<sessions>"), "stats.txt")
    }

    @Test func diffOfAnEffectDivergenceExitsOneWithTheStepTheEffectAndTheAction() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let host = try fakeHost(answering: "board-diff.answer", in: scratch)
        let text = try await CLI.run(["diff", Self.formatTwo, "--host", host])
        #expect(text.status == 1)
        try expectGolden(normalized(text.stdout, scratch), "diff.txt")
        let json = try await CLI.run(["diff", Self.formatTwo, "--host", host, "--json"])
        #expect(json.status == 1)
        try expectGolden(normalized(json.stdout, scratch), "diff.json.txt")
    }

    @Test func checkNamesTheEffectDivergenceAndWhatAMatchDidNotCheck() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let host = try fakeHost(answering: "board-check.answer", in: scratch)
        let junit = scratch.file("junit.xml")
        let summary = scratch.file("summary.md")
        let outcome = try await CLI.run(["check", Self.formatTwo, Self.formatOne, "--host", host, "--junit", junit, "--summary", summary])
        #expect(outcome.status == 1)
        try expectGolden(normalized(outcome.stdout, scratch), "check.txt")
        try expectGolden(normalized(try String(contentsOfFile: junit, encoding: .utf8), scratch), "check.junit.xml")
        try expectGolden(normalized(try String(contentsOfFile: summary, encoding: .utf8), scratch), "check.summary.md")
    }

    @Test func theReportShowsTheEffectLinesAndMarksTheEffectDivergence() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let host = try fakeHost(answering: "board-diff.answer", in: scratch)
        let page = scratch.file("report.html")
        let outcome = try await CLI.run(["report", Self.formatTwo, "--host", host, "-o", page])
        #expect(outcome.status == 1)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        let data = try #require(html.firstRange(of: #"id="report-data">"#).map { html[$0.upperBound...] })
        let embedded = String(try #require(data.firstRange(of: "</script>").map { data[..<$0.lowerBound] }))
        #expect(embedded.contains(#""text":"step 1 effect 'post score' call 0: score.post(2) -> 1002""#))
        try expectGolden(normalized(embedded, scratch) + "\n", "report-data.json.txt")
    }

    /// `text` with what changes from run to run (the scratch folder, the fake host's time and the repository's commit)
    /// replaced by placeholders.
    private func normalized(_ text: String, _ scratch: Scratch) -> String {
        var text = text.replacingOccurrences(of: scratch.path, with: "<scratch>")
            .replacingOccurrences(of: Self.sessions.path, with: "<sessions>")
        let volatile = [
            (#"replayed through .*"#, "replayed through <host>"),
            (#""(builtAt|commit|dirty)": ?("[^"]*"|true|false|null)"#, #""$1":"<host>""#),
            (#"(<property name="host\.[A-Za-z]+" value=")[^"]*"#, "$1<host>"),
        ]
        for (pattern, template) in volatile {
            text = text.replacingOccurrences(of: pattern, with: template, options: .regularExpression)
        }
        return text
    }

    /// Expects `text` to equal the golden file `name` under `Tests/Sessions/Goldens` (written with
    /// `REPLAY_RECORD_GOLDENS=1`).
    private func expectGolden(_ text: String, _ name: String) throws {
        let path = Self.sessions.appendingPathComponent("Goldens/\(name)").path
        if ProcessInfo.processInfo.environment["REPLAY_RECORD_GOLDENS"] == "1" {
            try FileManager.default.createDirectory(atPath: Self.sessions.appendingPathComponent("Goldens").path, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        }
        #expect(text == (try String(contentsOfFile: path, encoding: .utf8)), "\(name)")
    }
}
