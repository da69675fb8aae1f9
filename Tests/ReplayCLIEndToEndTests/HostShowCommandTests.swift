import Foundation
import Testing

/// `replay-cli host --show` says which host and build step would run, in which folder and from where, running
/// neither; exit 2 when no host is named or `.replay.json` is not trusted.
@Suite struct HostShowCommandTests {
    @Test func itShowsTheCommandsOfReplayJSONAndRunsNeither() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // Given a .replay.json whose commands would leave files behind
        let file = try scratch.write(
            ".replay.json", #"{"host": "touch host-ran", "build": "touch build-ran\u001b[2J"}"#)

        // When host --show runs there, then it prints both commands quoted (the escape visible) and where they come from
        let outcome = try await CLI.run(["host", "--show"], directory: scratch.url)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr == "")
        #expect(
            outcome.stdout == """
                host   "touch host-ran"
                       from "\(file)"
                build  "touch build-ran\\u001b[2J"
                       from "\(file)"
                in     "\(scratch.path)"
                Nothing was run.

                """)
        #expect(!FileManager.default.fileExists(atPath: scratch.file("host-ran")))
        #expect(!FileManager.default.fileExists(atPath: scratch.file("build-ran\u{1B}[2J")))
    }

    @Test func optionsAndTheEnvironmentAreNamedAsWhereTheCommandsComeFrom() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let options = try await CLI.run(
            ["host", "--show", "--host", "./my-host", "--build", "make my-host", "--no-build"], directory: scratch.url)
        #expect(options.status == 0)
        #expect(
            options.stdout == """
                host   "./my-host"
                       from the --host option
                build  "make my-host"  (not run: --no-build; the host still runs)
                       from the --build option
                in     "\(scratch.path)"
                Nothing was run.

                """)

        let environment = try await CLI.run(
            ["host", "--show"], environment: ["REPLAY_HOST": "env-host"], directory: scratch.url)
        #expect(environment.status == 0)
        #expect(
            environment.stdout == """
                host   "env-host"
                       from the environment variable REPLAY_HOST
                build  none: the host runs as it is
                in     "\(scratch.path)"
                Nothing was run.

                """)
    }

    @Test func jsonSaysTheSameAsData() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write(".replay.json", #"{"host": "h", "build": "b"}"#)

        let outcome = try await CLI.run(
            ["host", "--show", "--json"], environment: ["REPLAY_BUILD": "env-build"], directory: scratch.url)
        #expect(outcome.status == 0)
        let document = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? NSDictionary
        #expect(
            document == [
                "host": ["command": "h", "origin": ["file": file]],
                "build": ["command": "env-build", "origin": ["environment": "REPLAY_BUILD"], "skipped": false],
                "directory": scratch.path,
            ] as NSDictionary)
    }

    @Test func noHostOrAnUntrustedFileIsExitTwo() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let none = try await CLI.run(["host", "--show"], directory: scratch.url)
        #expect(none.status == 2)
        #expect(
            none.stderr == """
                Error: no replay host: pass '--host <command>', set REPLAY_HOST, or add a .replay.json with \
                {"host": "<command>"} (see docs/replay-host-protocol.md)

                """)

        let file = try scratch.write(".replay.json", #"{"host": "h"}"#)
        try FileManager.default.setAttributes([.posixPermissions: 0o646], ofItemAtPath: file)
        let refused = try await CLI.run(["host", "--show", "--json"], directory: scratch.url)
        #expect(refused.status == 2)
        let error = try JSONSerialization.jsonObject(with: Data(refused.stdout.utf8)) as? [String: Any]
        #expect(error?["file"] as? String == file)
        #expect((error?["message"] as? String)?.hasPrefix("not trusted: it is writable by every user (mode 646)") == true)
    }

    @Test func withoutShowItIsAUsageError() async throws {
        let outcome = try await CLI.run(["host"])
        #expect(outcome.status == 2)
        #expect(
            outcome.stderr == """
                Error: 'host' needs '--show' (print what would run, running nothing)
                Usage: replay-cli host [--show] [--host <command>] [--build <command>] [--no-build] [--json]

                """)
    }
}
