import Foundation
import Testing

/// No command hangs on input that never ends: a path that is not a regular file (a device, a FIFO without a
/// writer, a folder) is refused before a byte is read, and a line from standard input is refused as soon as it
/// passes the line limit. Each run has a 60 s bound, so a command that hangs fails its test.
@Suite struct EndlessInputTests {
    /// A path that names something other than a regular file, and how the refusal names its kind.
    struct Target: CustomTestStringConvertible, Sendable {
        let name: String
        let kind: String
        /// Makes the path in `scratch`, or names one that exists already.
        let make: @Sendable (Scratch) throws -> String

        var testDescription: String { name }

        static let all = [
            Target(name: "/dev/zero", kind: "a character device") { _ in "/dev/zero" },
            Target(name: "/dev/urandom", kind: "a character device") { _ in "/dev/urandom" },
            Target(name: "a FIFO without a writer", kind: "a FIFO (named pipe)") { scratch in
                let path = scratch.file("pipe.jsonl")
                try #require(mkfifo(path, 0o600) == 0)
                return path
            },
            Target(name: "a folder", kind: "a folder") { scratch in scratch.file("folder.jsonl") },
        ]
    }

    private static let bound = 60.0

    @Test(arguments: Target.all)
    func aPathThatIsNotARegularFileIsRefusedUnreadByEveryCommand(_ target: Target) async throws {
        // Given a path that names a device, a FIFO or a folder, and a good session and state
        let scratch = try Scratch()
        defer { scratch.remove() }
        try FileManager.default.createDirectory(atPath: scratch.file("folder.jsonl"), withIntermediateDirectories: false)
        let path = try target.make(scratch)
        let good = try scratch.copy("counter-basic.jsonl", as: "good.jsonl")
        let state = try scratch.write("state.json", "{}")
        let refusal = "Error: \(path): cannot read the session: it is \(target.kind), not a regular file\n"

        // When each command that reads a session is given it, Then each exits 2 at once naming the kind
        for arguments in [
            ["log", path], ["log", "--follow", path], ["show", path, "--step", "1"], ["stats", path],
            ["history", path, "/count"], ["diff", path, good], ["diff", good, path], ["replay", path],
            ["report", path], ["export-test", path], ["update", path], ["minimize", path, "-o", scratch.file("small.jsonl")],
        ] {
            let outcome = try await CLI.run(arguments, timeout: Self.bound)
            #expect(outcome.status == 2, "\(arguments)")
            #expect(outcome.stderr == refusal, "\(arguments)")
        }
        let verified = try await CLI.run(["verify", path], timeout: Self.bound)
        #expect(verified.status == 2)
        #expect(verified.stdout == "invalid \(path)\n  error \(path): cannot read the session: it is \(target.kind), not a regular file\n")
        for arguments in [["diff", "--states", path, state], ["diff", "--states", state, path]] {
            let outcome = try await CLI.run(arguments, timeout: Self.bound)
            #expect(outcome.status == 2, "\(arguments)")
            #expect(outcome.stderr == "Error: cannot read \(path): it is \(target.kind), not a regular file\n", "\(arguments)")
        }
    }

    @Test func aFolderOfSessionsRefusesTheFilesInItThatAreNotRegular() async throws {
        // Given a folder with a good session and a FIFO named like a session
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try scratch.copy("counter-basic.jsonl", as: "a-good.jsonl")
        try #require(mkfifo(scratch.file("b-pipe.jsonl"), 0o600) == 0)

        // When the folder is checked
        let outcome = try await CLI.run(["check", scratch.path], timeout: Self.bound)

        // Then the FIFO is refused by kind, the good session is checked, and the run is trouble
        #expect(outcome.status == 2, "\(outcome.stderr)")
        let fifo = URL(fileURLWithPath: scratch.path).appendingPathComponent("b-pipe.jsonl").relativePath
        #expect(outcome.stdout.contains("\(fifo): cannot read the session: it is a FIFO (named pipe), not a regular file"), "\(outcome.stdout)")
    }

    @Test func anEndlessLineOnStandardInputIsRefusedAtTheLimit() async throws {
        // Given /dev/zero as standard input: NUL bytes and never a newline
        let scratch = try Scratch()
        defer { scratch.remove() }
        let good = try scratch.copy("counter-basic.jsonl", as: "good.jsonl")
        let refusal = "<stdin>:1: line is longer than the limit of 16777216 bytes"

        // When verify, log and diff read it, Then each refuses line 1 once it passes the limit
        let verified = try await CLI.run(["verify", "-"], stdinFile: "/dev/zero", timeout: Self.bound)
        #expect(verified.status == 2)
        #expect(verified.stdout == "invalid <stdin>\n  error \(refusal)\n")
        for arguments in [["log", "-"], ["stats", "-"], ["diff", "-", good]] {
            let outcome = try await CLI.run(arguments, stdinFile: "/dev/zero", timeout: Self.bound)
            #expect(outcome.status == 2, "\(arguments)")
            #expect(outcome.stderr == "Error: \(refusal)\n", "\(arguments)")
        }
    }

    @Test func randomBytesOnStandardInputAreRefusedAtTheFirstLine() async throws {
        // Given /dev/urandom as standard input: endless lines of random bytes
        // When log reads it, Then it refuses line 1
        let logged = try await CLI.run(["log", "-"], stdinFile: "/dev/urandom", timeout: Self.bound)
        #expect(logged.status == 2)
        #expect(logged.stderr.hasPrefix("Error: <stdin>:1: "), "\(logged.stderr)")

        // When verify reads it, Then it lists the first 100 errors and stops
        let verified = try await CLI.run(["verify", "-"], stdinFile: "/dev/urandom", timeout: Self.bound)
        #expect(verified.status == 2)
        let lines = verified.stdout.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("  error <stdin>:") && $0.dropFirst(16).first?.isNumber == true }.count == 100)
        #expect(lines.last?.hasPrefix("  error <stdin>: stopped after 100 errors: the lines after line ") == true, "\(lines.last ?? "")")
    }
}
