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

    /// Appends `bytes` to the file at `path` in pieces of `piece` bytes, each a write of its own.
    private static func append(_ bytes: Data, to path: String, piece: Int) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seekToEnd()
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = min(start + piece, bytes.endIndex)
            try handle.write(contentsOf: bytes[start..<end])
            start = end
        }
    }

    @Test func followPrintsAFourMebibyteStateLineWrittenInPieces() async throws {
        // Given a session of which only the header is written yet
        let scratch = try Scratch()
        defer { scratch.remove() }
        let header = try Self.lines(of: "counter-basic.jsonl")[0]
        let path = try scratch.write("big.jsonl", header + "\n")
        let blob = String(repeating: "x", count: 4 << 20)
        let action = #"{"action":{"increment":{}},"kind":"action","name":"increment","origin":"app","seq":1,"state":{"blob":"\#(blob)","count":1,"step":1},"time":0.5}"#
        let end = #"{"actions":1,"dropped":0,"kind":"end","reason":"finished","time":1}"#

        // When log --follow runs while a 4 MiB state line and the end line are appended 64 KiB at a time
        async let following = CLI.run(["log", "--follow", path], timeout: 60)
        try Self.append(Data((action + "\n" + end + "\n").utf8), to: path, piece: 1 << 16)
        let outcome = try await following

        // Then it printed what plain log prints of the finished file
        let whole = try await CLI.run(["log", path])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout == whole.stdout)
        #expect(outcome.stdout.contains("increment"), "\(outcome.stdout)")
    }

    @Test func followReportsALineThatGrowsPastTheLimit() async throws {
        // Given a session of which only the header is written yet
        let scratch = try Scratch()
        defer { scratch.remove() }
        let header = try Self.lines(of: "counter-basic.jsonl")[0]
        let path = try scratch.write("growing.jsonl", header + "\n")

        // When log --follow runs while a second line grows past 16 MiB, 1 MiB at a time, with no newline yet
        async let following = CLI.run(["log", "--follow", path], timeout: 60)
        try Self.append(Data(repeating: UInt8(ascii: "x"), count: (16 << 20) + 1), to: path, piece: 1 << 20)
        let outcome = try await following

        // Then it reports line 2 as over the limit and exits 2, without waiting for the line's end
        #expect(outcome.status == 2)
        #expect(outcome.stderr == "Error: \(path):2: line is longer than the limit of 16777216 bytes\n")
    }
}
