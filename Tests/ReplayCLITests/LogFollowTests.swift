import Foundation
import Testing

/// `log --follow` prints a session's actions as they are written, until its `end`; `--latest` picks the session
/// written to last.
@Suite struct LogFollowTests {
    private static func lines(of session: String) throws -> [String] {
        try String(contentsOfFile: CLI.session(session), encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test func followPrintsTheLinesWrittenAfterItStartedAndStopsAtTheEnd() async throws {
        // Given a session of which only the header and two actions are written yet
        let scratch = try Scratch()
        defer { scratch.remove() }
        let lines = try Self.lines(of: "counter-basic.jsonl")
        let path = try scratch.write("live.jsonl", lines.prefix(3).joined(separator: "\n") + "\n")

        // When log --follow runs while the rest is written
        async let following = CLI.run(["log", "--follow", path])
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        for line in lines.dropFirst(3) { try handle.write(contentsOf: Data((line + "\n").utf8)) }
        try handle.close()
        let outcome = try await following

        // Then it printed what plain log prints of the finished file, and ended with it
        let whole = try await CLI.run(["log", path])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout == whole.stdout)
        #expect(outcome.stdout.hasSuffix("     - end: finished after 0.036 s, 40 actions, 0 dropped\n"))
    }

    @Test func followWithJSONPrintsOneObjectPerLine() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = try scratch.copy("counter-basic.jsonl", as: "done.jsonl")

        let outcome = try await CLI.run(["log", "--follow", "--json", "--to", "2", path])

        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stdout == """
                {"changes":1,"kind":"action","name":"increment","origin":"app","step":1,"time":0.000232437}
                {"changes":1,"kind":"action","name":"increment","origin":"app","step":2,"time":0.000298583}
                {"actions":40,"dropped":0,"kind":"end","reason":"finished","time":0.03590016}

                """)
    }

    @Test func latestIsTheSessionWrittenToLastInTheFolder() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let older = try scratch.copy("todos-basic.jsonl", as: "older.jsonl")
        _ = try scratch.copy("counter-basic.jsonl", as: "newer.jsonl")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: older)

        let outcome = try await CLI.run(["log", "--latest", "--dir", scratch.path, "--to", "1"])

        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.hasPrefix(#"session 67abae19-bf92-42ab-8766-3ef5d45410a3, store "counter""#), "\(outcome.stdout)")

        let neither = try await CLI.run(["log"])
        #expect(neither.status == 2)
        #expect(neither.stderr.hasPrefix("Error: missing '<session>' (or --latest for the session replayd wrote to last)\n"))
    }
}
