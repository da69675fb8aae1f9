import Foundation
import Testing

/// Every command that reads a session reads it the same strict way: a broken file is exit 2 with the reader's
/// `file:line: reason`, from `show` to `diff`, never a replayed guess or an `ok`.
@Suite struct StrictReadingTests {
    /// A sample session broken in one way, and what the reader says about it.
    struct BrokenInput: CustomTestStringConvertible, Sendable {
        let name: String
        let sample: String
        /// Turns the sample's lines into the broken ones.
        let breaking: @Sendable ([String]) -> [String]
        let line: Int
        let reason: String
        var testDescription: String { name }
    }

    /// One command run on a broken file, and how to find the reader's message in what it printed.
    struct ReadingCommand: CustomTestStringConvertible, Sendable {
        let name: String
        /// The arguments, given the broken file's path and the folder it is in.
        let arguments: @Sendable (_ path: String, _ folder: String) -> [String]
        /// Where the message is: `Error: ...` on stderr, or a line of the report on stdout.
        let reports: Report
        var testDescription: String { name }
    }

    /// Where a command puts the reader's message.
    enum Report: Sendable {
        /// `Error: <message>` as the whole of stderr.
        case error
        /// `verify`'s report: `invalid <file>`, then `  error <message>` as its first problem.
        case verifyReport
        /// `check`'s report: the message as a line of its own on stdout, nothing on stderr.
        case checkReport
    }

    static let host = CLI.binaries.appendingPathComponent("sample-replay-host").path

    /// The samples' lines: counter-basic is a header, actions 1...40 on lines 2...41 and an end line.
    static let inputs: [BrokenInput] = [
        BrokenInput(
            name: "a duplicated line", sample: "counter-basic.jsonl", breaking: { Array($0[0..<4] + [$0[3]] + $0[4...]) },
            line: 5, reason: "seq 3 repeats or goes backwards: the lines before it cover sequence numbers up to 3"),
        BrokenInput(
            name: "a sequence number that goes backwards", sample: "counter-basic.jsonl",
            breaking: { lines in
                var lines = lines
                lines[4] = lines[4].replacingOccurrences(of: #""seq":4,"#, with: #""seq":2,"#)
                return lines
            },
            line: 5, reason: "seq 2 repeats or goes backwards: the lines before it cover sequence numbers up to 3"),
        BrokenInput(
            name: "two lines swapped", sample: "counter-basic.jsonl", breaking: { Array($0[0..<3] + [$0[4], $0[3]] + $0[5...]) },
            line: 4, reason: "seq 4 skips 3 with no 'gap' line for them (the lines before it cover up to 2)"),
        BrokenInput(
            name: "a line missing with no gap line", sample: "counter-basic.jsonl",
            breaking: { Array($0[0..<3] + $0[4...]) },
            line: 4, reason: "seq 4 skips 3 with no 'gap' line for them (the lines before it cover up to 2)"),
        BrokenInput(
            name: "a gap over numbers already covered", sample: "counter-basic.jsonl",
            breaking: { Array($0[0..<4] + [#"{"count":1,"from":3,"kind":"gap","reason":"bufferFull","to":3}"#] + $0[4...]) },
            line: 5,
            reason: "gap 3 does not start right after the sequence numbers already covered (up to 3); it must start at 4"),
        BrokenInput(
            name: "an integer written as 1.0", sample: "counter-basic.jsonl",
            breaking: { lines in
                var lines = lines
                lines[0] = lines[0].replacingOccurrences(of: #""format":1,"#, with: #""format":1.0,"#)
                return lines
            },
            line: 1, reason: "field 'format' expected an integer, found number"),
        BrokenInput(
            name: "a patch operation missing its value", sample: "todos-delta.jsonl",
            breaking: { lines in
                var lines = lines
                let line = lines[2]
                guard let start = line.range(of: #""patch":["#), let end = line.range(of: #"],"seq""#) else { return lines }
                lines[2] = line[..<start.upperBound] + #"{"op":"replace","path":"/filter"}"# + line[end.lowerBound...]
                return lines
            },
            line: 3, reason: "field 'patch[0].value' is missing"),
    ]

    static let commands: [ReadingCommand] = [
        ReadingCommand(name: "show", arguments: { path, _ in ["show", path] }, reports: .error),
        ReadingCommand(name: "log", arguments: { path, _ in ["log", path] }, reports: .error),
        ReadingCommand(name: "stats", arguments: { path, _ in ["stats", path] }, reports: .error),
        ReadingCommand(name: "replay", arguments: { path, _ in ["replay", path, "--host", host] }, reports: .error),
        ReadingCommand(name: "diff", arguments: { path, _ in ["diff", path, "--host", host] }, reports: .error),
        ReadingCommand(
            name: "diff of two sessions", arguments: { path, _ in ["diff", CLI.session("counter-basic.jsonl"), path] },
            reports: .error),
        ReadingCommand(name: "check", arguments: { path, _ in ["check", path, "--host", host] }, reports: .checkReport),
        ReadingCommand(name: "update", arguments: { path, _ in ["update", path, "--host", host] }, reports: .error),
        ReadingCommand(name: "verify", arguments: { path, _ in ["verify", path] }, reports: .verifyReport),
        ReadingCommand(name: "sessions", arguments: { _, folder in ["sessions", "--dir", folder] }, reports: .error),
    ]

    @Test(arguments: inputs, commands)
    func aBrokenSessionIsExitTwoWithTheReadersFileLineAndReason(_ input: BrokenInput, _ command: ReadingCommand) async throws {
        // Given a sample session broken in one way, alone in a folder
        let scratch = try Scratch()
        defer { scratch.remove() }
        let sample = try String(contentsOfFile: CLI.session(input.sample), encoding: .utf8)
        let lines = sample.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        let broken = input.breaking(lines)
        #expect(broken != lines)
        let path = try scratch.write("broken.jsonl", broken.map { $0 + "\n" }.joined())

        // When the command reads it
        let outcome = try await CLI.run(command.arguments(path, scratch.path))

        // Then it exits 2 and says where and what, in the reader's words
        let message = "\(path):\(input.line): \(input.reason)"
        #expect(outcome.status == 2, "\(outcome.stdout)\(outcome.stderr)")
        switch command.reports {
        case .error:
            #expect(outcome.stderr == "Error: \(message)\n")
        case .verifyReport:
            let report = outcome.stdout.split(separator: "\n").prefix(2)
            #expect(report == ["invalid \(path)", "  error \(message)"], "\(outcome.stdout)")
        case .checkReport:
            #expect(outcome.stdout.split(separator: "\n").first == "✗ error       \(message)"[...], "\(outcome.stdout)")
            #expect(outcome.stderr == "")
        }
        // And a command that writes (update) left the file as it was
        #expect(try String(contentsOfFile: path, encoding: .utf8) == broken.map { $0 + "\n" }.joined())
        #expect(!FileManager.default.fileExists(atPath: path + ".orig"))
    }
}
