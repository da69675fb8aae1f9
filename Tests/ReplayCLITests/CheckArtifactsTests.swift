import Foundation
import Testing

/// `check --artifacts DIR` keeps, for each failing session, its replayed session and HTML report, and never
/// touches the original; `check --summary FILE` appends a Markdown table for a CI job summary.
@Suite struct CheckArtifactsTests {
    private let regression = ["SAMPLE_HOST_REGRESSION": "todos-toggle"]
    /// The samples' host, named since the commands run in a scratch folder without `.replay.json`.
    private let host = ["--host", CLI.binaries.appendingPathComponent("sample-replay-host").path]

    @Test func aFailingSessionKeepsItsReplayedSessionAndReportAndTheSummaryNamesThem() async throws {
        // Given a diverging todos session and a matching counter session, and a job summary already begun
        let scratch = try Scratch()
        defer { scratch.remove() }
        let todos = try scratch.copy("todos-basic.jsonl", as: "todos-basic.jsonl")
        _ = try scratch.copy("counter-basic.jsonl", as: "counter-basic.jsonl")
        let original = try Data(contentsOf: URL(fileURLWithPath: todos))
        try scratch.write("summary.md", "# CI\n\n")

        // When check runs with --artifacts and --summary under the toggle regression
        let outcome = try await CLI.run(
            ["check", "todos-basic.jsonl", "counter-basic.jsonl", "--no-build", "--artifacts", "artifacts", "--summary", "summary.md"] + host,
            environment: regression, directory: scratch.url)

        // Then it fails, keeps the two files of the diverging session only, says so, and appends this table
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("\nkept artifacts/todos-basic.replayed.jsonl\nkept artifacts/todos-basic.html\n"), "\(outcome.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.file("artifacts")).sorted() == ["todos-basic.html", "todos-basic.replayed.jsonl"])
        #expect(
            try String(contentsOfFile: scratch.file("summary.md"), encoding: .utf8) == """
                # CI

                ### replay-cli check: failed

                2 sessions: 1 diverged, 1 match

                | | Session | Verdict | Step | Path | Artifacts |
                | --- | --- | --- | --- | --- | --- |
                | ❌ | `todos-basic.jsonl` | diverged | 5 `toggleCompleted` | `todos[id: 0BB980A5-75A8-4661-BEC0-8AA83B63F1EE].isComplete` | `artifacts/todos-basic.replayed.jsonl`<br>`artifacts/todos-basic.html` |
                | ✅ | `counter-basic.jsonl` | match |  |  |  |

                """)

        // And the replayed session is the session as the regression replays it: diff through it is a match, while
        // the original, untouched, still diverges
        #expect(try Data(contentsOf: URL(fileURLWithPath: todos)) == original)
        let replayed = try await CLI.run(["diff", "artifacts/todos-basic.replayed.jsonl", "--no-build"] + host, environment: regression, directory: scratch.url)
        #expect(replayed.status == 0, "\(replayed.stdout)\(replayed.stderr)")
        #expect(try String(contentsOfFile: scratch.file("artifacts/todos-basic.html"), encoding: .utf8).contains("diverged at step 5 of 40"))
    }

    @Test func passingSessionsKeepNoArtifactsAndTheJSONSaysWhatWasKept() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try scratch.copy("todos-basic.jsonl", as: "todos-basic.jsonl")
        let passing = try await CLI.run(["check", "todos-basic.jsonl", "--no-build", "--artifacts", "artifacts"] + host, directory: scratch.url)
        #expect(passing.status == 0, "\(passing.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.file("artifacts")) == [])

        let failing = try await CLI.run(
            ["check", "todos-basic.jsonl", "--no-build", "--artifacts", "artifacts", "--json"] + host, environment: regression,
            directory: scratch.url)
        let document = try JSONSerialization.jsonObject(with: Data(failing.stdout.utf8)) as? [String: Any]
        let session = (document?["sessions"] as? [[String: Any]])?.first
        #expect(session?["artifacts"] as? [String] == ["artifacts/todos-basic.replayed.jsonl", "artifacts/todos-basic.html"])
        #expect(session?["artifactProblems"] as? [String] == [])
    }
}
