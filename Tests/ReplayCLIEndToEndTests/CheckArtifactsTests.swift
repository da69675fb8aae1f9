import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

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

    @Test func anActionNameFullOfMarkupAndControlCharactersStaysTextInTheSummaryAndTheJUnitReport() async throws {
        // Given a diverging todos session whose diverging action's name holds Markdown, HTML, a line break, and every
        // character XML 1.0 forbids
        let scratch = try Scratch()
        defer { scratch.remove() }
        let forbidden = String(String.UnicodeScalarView((0x00...0x1F).compactMap(Unicode.Scalar.init) + ["\u{7F}", "\u{FFFE}", "\u{FFFF}"]))
        let name = "toggle\n### ✅ passed\n![x](https://e/x.png) [l](https://e) <img src=x> `c` | " + forbidden
        let encoded = String(decoding: try JSONEncoder().encode(name), as: UTF8.self)
        let original = try String(contentsOfFile: CLI.session("todos-basic.jsonl"), encoding: .utf8)
        let hostile = original.replacingOccurrences(
            of: #""name":"toggleCompleted","origin":"app","seq":5,"#, with: #""name":\#(encoded),"origin":"app","seq":5,"#)
        try #require(hostile != original)
        try scratch.write("todos.jsonl", hostile)

        // When check writes its summary and JUnit report under the toggle regression
        let outcome = try await CLI.run(
            ["check", "todos.jsonl", "--no-build", "--summary", "summary.md", "--junit", "junit.xml"] + host,
            environment: regression, directory: scratch.url)

        // Then the summary's row holds the name in one code span, its line breaks and controls escaped, and the
        // report parses as XML, its explanation holding none of the characters XML forbids
        #expect(outcome.status == 1, "\(outcome.stdout)\(outcome.stderr)")
        let shown = (0x00...0x1F).map { "\\u{\(String($0, radix: 16, uppercase: true))}" }.joined() + "\\u{7F}\\u{FFFE}\\u{FFFF}"
        #expect(
            try String(contentsOfFile: scratch.file("summary.md"), encoding: .utf8) == """
                ### replay-cli check: failed

                1 session: 1 diverged

                | | Session | Verdict | Step | Path | Artifacts |
                | --- | --- | --- | --- | --- | --- |
                | ❌ | `todos.jsonl` | diverged | 5 ``toggle\\u{A}### ✅ passed\\u{A}![x](https://e/x.png) [l](https://e) <img src=x> `c` \\| \(shown)`` | `todos[id: 0BB980A5-75A8-4661-BEC0-8AA83B63F1EE].isComplete` |  |

                """)
        let xml = try Data(contentsOf: URL(fileURLWithPath: scratch.file("junit.xml")))
        let parser = XMLParser(data: xml)
        #expect(parser.parse(), "not well-formed: \(String(describing: parser.parserError))")
        let report = try XMLDocument(data: xml)
        let failure = try #require(try report.nodes(forXPath: "//failure").first)
        let explanation = try #require(failure.stringValue)
        #expect(explanation.contains("toggle"), "\(explanation)")
        #expect(!explanation.unicodeScalars.contains { $0.value < 0x09 || $0 == "\u{1B}" || $0 == "\u{FFFE}" }, "\(explanation)")
    }

    @Test func aMatchingSessionCutOffBeforeItsEndLineSaysSoInItsLineAndSummaryRow() async throws {
        // Given the counter sample cut off after its ninth action, with no end line
        let scratch = try Scratch()
        defer { scratch.remove() }
        let whole = try String(contentsOfFile: CLI.session("counter-basic.jsonl"), encoding: .utf8)
        try scratch.write("counter-cut.jsonl", whole.split(separator: "\n").prefix(10).joined(separator: "\n") + "\n")

        // When check runs with --summary
        let outcome = try await CLI.run(
            ["check", "counter-cut.jsonl", "--no-build", "--summary", "summary.md"] + host, directory: scratch.url)

        // Then it matches, and both its line and its row say that the recording was cut off
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stdout.hasPrefix(
                "✓ match       counter-cut.jsonl (9 actions); no end line: the recording was cut off or is still going, later actions may be missing\n"),
            "\(outcome.stdout)")
        #expect(
            try String(contentsOfFile: scratch.file("summary.md"), encoding: .utf8) == """
                ### replay-cli check: passed

                1 session: 1 match

                | | Session | Verdict | Step | Path | Artifacts |
                | --- | --- | --- | --- | --- | --- |
                | ✅ | `counter-cut.jsonl` | match |  | `no end line: the recording was cut off or is still going, later actions may be missing` |  |

                """)
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
