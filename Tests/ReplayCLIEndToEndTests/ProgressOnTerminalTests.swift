import Foundation
import Testing

/// Progress lines: on a terminal, long work says what it does, how far it is and how long is left, on stderr, and
/// erases itself; never on a pipe, never with `--json`, and `NO_COLOR` (which ``CLI/run`` sets) does not stop them.
@Suite struct ProgressOnTerminalTests {
    static let erase = "\r\u{1B}[K"

    /// A folder of `count` copies of a sample session, none summarized in an index yet.
    static func manySessions(_ count: Int, in scratch: Scratch) throws -> String {
        for number in 1...count { _ = try scratch.copy("counter-basic.jsonl", as: "s\(number).jsonl") }
        return scratch.path
    }

    #if os(Linux)
        /// Runs `replay-cli` with its stdout and stderr on a pseudo-terminal, through util-linux's `script`, and
        /// returns what the terminal got (both streams, as the terminal shows them).
        static func runOnTerminal(_ arguments: [String]) async throws -> CLI.Outcome {
            let command = ([CLI.binaries.appendingPathComponent("replay-cli").path] + arguments).map { "'\($0)'" }
                .joined(separator: " ")
            return try await CLI.run(["-qec", command, "/dev/null"], executable: "/usr/bin/script")
        }

        @Test func sessionsOverAFolderShowsAProgressLineOnATerminalAndErasesIt() async throws {
            // Given a folder of sessions that were never summarized
            let scratch = try Scratch()
            defer { scratch.remove() }
            let folder = try Self.manySessions(30, in: scratch)

            // When sessions lists them on a terminal (with NO_COLOR set)
            let outcome = try await Self.runOnTerminal(["sessions", folder])

            // Then a progress line said what it did and how far, and was erased before the table
            #expect(outcome.status == 0, "\(outcome.stdout)")
            #expect(outcome.stdout.contains("\(Self.erase)sessions: looked at 0 files in \(folder)"), "\(outcome.stdout.debugDescription)")
            let table = try #require(outcome.stdout.range(of: "modified"))
            #expect(outcome.stdout[..<table.lowerBound].hasSuffix(Self.erase), "\(outcome.stdout.debugDescription)")
        }

        @Test func theHostBuildShowsHowFarItIsByTheStepsSwiftBuildPrints() async throws {
            // Given a build step that prints swift build's step counters, each after a pause longer than the
            // meter's redraw interval
            let build = #"sleep 0.3; echo "[1/2] Compiling Host main.swift"; sleep 0.3; echo "[2/2] Linking host""#

            // When a session is replayed on a terminal
            let outcome = try await Self.runOnTerminal(
                ["diff", CLI.session("counter-basic.jsonl"), "--host", CLI.sampleHost, "--build", build])

            // Then the progress line named the build and counted its steps, and the verdict follows it
            #expect(outcome.status == 0, "\(outcome.stdout)")
            #expect(outcome.stdout.contains("\(Self.erase)building the replay host: 0 steps"), "\(outcome.stdout.debugDescription)")
            #expect(outcome.stdout.contains("\(Self.erase)building the replay host: 1 of 2 steps"), "\(outcome.stdout.debugDescription)")
        }

        @Test func reportSaysWhichStageItIsAt() async throws {
            let scratch = try Scratch()
            defer { scratch.remove() }

            let outcome = try await Self.runOnTerminal(
                ["report", CLI.session("counter-basic.jsonl"), "--no-replay", "-o", scratch.file("page.html")])

            #expect(outcome.status == 0, "\(outcome.stdout)")
            #expect(outcome.stdout.contains("\(Self.erase)report: rendering the page of"), "\(outcome.stdout.debugDescription)")
        }

        @Test func jsonOnATerminalHasNoProgress() async throws {
            let scratch = try Scratch()
            defer { scratch.remove() }
            let folder = try Self.manySessions(30, in: scratch)

            let outcome = try await Self.runOnTerminal(["sessions", folder, "--json"])

            #expect(outcome.status == 0, "\(outcome.stdout)")
            #expect(!outcome.stdout.contains("\u{1B}"), "\(outcome.stdout.debugDescription)")
        }
    #endif

    @Test func aPipeGetsNoProgressAndNoEscapes() async throws {
        // Given the same folder
        let scratch = try Scratch()
        defer { scratch.remove() }
        let folder = try Self.manySessions(30, in: scratch)

        // When sessions writes to pipes
        let outcome = try await CLI.run(["sessions", folder])

        // Then stderr is empty and neither stream holds an escape
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr == "")
        #expect(!outcome.stdout.contains("\u{1B}") && !outcome.stdout.contains("\r"))
    }
}
