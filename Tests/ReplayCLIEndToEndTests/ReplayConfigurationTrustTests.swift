import Foundation
import Testing

/// Nobody else's `.replay.json` runs as you: a replaying command neither builds nor starts what a file above the
/// repository root, a file in a folder others may write, or a file others may write names.
@Suite struct ReplayConfigurationTrustTests {
    /// A `.replay.json` whose build step would leave `marker` behind, and whose host would too.
    private static func planted(marker: String) -> String {
        #"{"host": "sh -c 'touch \#(marker).host' replay-host", "build": "touch \#(marker)"}"#
    }

    /// Runs `diff` on a sample session in `directory`, with no host named anywhere else.
    private static func diff(in directory: URL) async throws -> CLI.Outcome {
        try await CLI.run(["diff", CLI.session("todos-basic.jsonl"), "--json"], directory: directory)
    }

    @Test func aFileAboveTheRepositoryRootRunsNothing() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // Given a file in the folder that holds a repository, and no file in the repository
        let marker = scratch.file("ran")
        try scratch.write(".replay.json", Self.planted(marker: marker))
        let repository = scratch.url.appendingPathComponent("repo")
        try FileManager.default.createDirectory(at: repository.appendingPathComponent(".git"), withIntermediateDirectories: true)

        // When diff runs in the repository, then it finds no host, and neither command ran
        let outcome = try await Self.diff(in: repository)
        #expect(outcome.status == 2)
        #expect(outcome.stdout.contains(#""message": "no replay host: pass '--host <command>'"#), "\(outcome.stdout)")
        #expect(!FileManager.default.fileExists(atPath: marker))
        #expect(!FileManager.default.fileExists(atPath: marker + ".host"))
    }

    @Test func aFileInAFolderEveryUserMayWriteRunsNothingFromBelowIt() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // Given a folder like /tmp (mode 1777) holding a file, and a folder below it that is no repository
        let marker = scratch.file("ran")
        let shared = scratch.url.appendingPathComponent("shared")
        try FileManager.default.createDirectory(at: shared.appendingPathComponent("x/y"), withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o1777], ofItemAtPath: shared.path)
        try Data(Self.planted(marker: marker).utf8).write(to: shared.appendingPathComponent(".replay.json"))

        // When diff runs below it, then it finds no host; run in the folder itself, the file is refused by name
        let below = try await Self.diff(in: shared.appendingPathComponent("x/y"))
        #expect(below.status == 2)
        #expect(below.stdout.contains("no replay host"), "\(below.stdout)")
        let inside = try await CLI.run(["diff", CLI.session("todos-basic.jsonl")], directory: shared)
        #expect(inside.status == 2)
        #expect(
            inside.stderr.hasPrefix(
                "Error: \(shared.path)/.replay.json: not trusted: its folder \(shared.path) is writable by every user (mode 1777)"),
            "\(inside.stderr)")
        #expect(!FileManager.default.fileExists(atPath: marker))
        #expect(!FileManager.default.fileExists(atPath: marker + ".host"))
    }

    @Test func aFileEveryUserMayWriteIsRefusedByNameAndRunsNothing() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // Given a file of mode 0666 in the working directory
        let marker = scratch.file("ran")
        let file = try scratch.write(".replay.json", Self.planted(marker: marker))
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: file)

        // Then diff is exit 2 naming the file, why, and how to trust it, and nothing ran
        let outcome = try await CLI.run(["diff", CLI.session("todos-basic.jsonl")], directory: scratch.url)
        #expect(outcome.status == 2)
        #expect(
            outcome.stderr == """
                Error: \(file): not trusted: it is writable by every user (mode 666), and a .replay.json names commands \
                that run as you. Make the file and its folder yours and writable only by you (chown, chmod go-w), or \
                set REPLAY_TRUST_CONFIG=\(file) to trust this one file (see docs/replay-cli.md#trusting-replayjson)

                """)
        #expect(!FileManager.default.fileExists(atPath: marker))
        #expect(!FileManager.default.fileExists(atPath: marker + ".host"))
    }
}
