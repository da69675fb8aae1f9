import Foundation
import Testing

/// `check` gives all its sessions to one host process, which replays several at once; a reducer that crashes takes
/// down only its own session, reported at its step, and the other sessions still get their verdicts.
@Suite struct CheckManySessionsTests {
    /// A host that notes each start of it in `starts.log`, then runs the samples' host.
    private func countingHost(in scratch: Scratch) throws -> String {
        let host = CLI.binaries.appendingPathComponent("sample-replay-host").path
        return try scratch.write(
            "host.sh",
            """
            #!/bin/sh
            echo started >> '\(scratch.file("starts.log"))'
            exec '\(host)' "$@"
            """, executable: true)
    }

    @Test func oneHostProcessChecksEverySession() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let host = try countingHost(in: scratch)

        let outcome = try await CLI.run(["check", "samples/sessions", "--jobs", "2", "--host", host, "--no-build"])

        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("7 sessions: 7 match"), "\(outcome.stdout)")
        #expect(try String(contentsOfFile: scratch.file("starts.log"), encoding: .utf8) == "started\n")
    }

    @Test(arguments: [1, 2, 6])
    func aCrashingReducerFailsOnlyItsSessionAtItsStep(jobs: Int) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let host = try countingHost(in: scratch)

        // Given a host whose counter reducer traps on `reset` (step 10 of counter-basic)
        let outcome = try await CLI.run(
            ["check", "samples/sessions", "--jobs", "\(jobs)", "--host", host, "--no-build"],
            environment: ["SAMPLE_HOST_REGRESSION": "counter-crash"])

        // Then the counter session is an error at its step, and every other session matches
        #expect(outcome.status == 2)
        let lines = outcome.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let counter = try #require(lines.first { $0.contains("counter-basic.jsonl") })
        #expect(counter.hasPrefix("✗ error       samples/sessions/counter-basic.jsonl: the replay host crashed (signal "), "\(counter)")
        #expect(counter.hasSuffix(") at step 10 (reset) without an answer; its stderr said:"), "\(counter)")
        for name in ["rehearsals-journey", "rehearsals-week", "scoreboard-match", "todos-basic", "todos-delta"] {
            #expect(lines.contains { $0.hasPrefix("✓ match       samples/sessions/\(name).jsonl (") }, "\(name): \(outcome.stdout)")
        }
        #expect(lines.contains("7 sessions: 1 error, 6 match"), "\(outcome.stdout)")
        // One host for the sessions; when several were in flight at the crash, one for each of them (checked again
        // alone); and one for the sessions not yet started
        let starts = try String(contentsOfFile: scratch.file("starts.log"), encoding: .utf8).split(separator: "\n").count
        #expect(starts <= jobs + 2, "\(starts) hosts")
    }

    @Test func diffNamesTheStepWhereTheSamplesHostCrashed() async throws {
        // (A crashing host prints its backtrace before it exits; on a loaded machine that took longer than the default
        // 30 s of silence, and the crash was reported as a hang.)
        let outcome = try await CLI.run(
            ["diff", CLI.session("counter-basic.jsonl"), "--no-build", "--timeout", "600"],
            environment: ["SAMPLE_HOST_REGRESSION": "counter-crash"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.hasPrefix("Error: the replay host crashed (signal "), "\(outcome.stderr)")
        #expect(outcome.stderr.contains(") at step 10 (reset) without an answer; its stderr said:\n"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("the counter cannot reset"), "\(outcome.stderr)")
    }

    @Test func aSessionThatCannotBeReadIsOneLineThatNamesItsFileAndLineOnce() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try scratch.write("broken.jsonl", "{\"bad json\n")

        let outcome = try await CLI.run(
            ["check", scratch.url.path, "--host", CLI.binaries.appendingPathComponent("sample-replay-host").path, "--no-build"])

        #expect(outcome.status == 2)
        let lines = outcome.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(
            lines.dropLast(2).joined(separator: "\n") == """
                ✗ error       \(scratch.file("broken.jsonl")):1: not valid JSON: at byte 1: unterminated string

                1 session: 1 error
                """)
        #expect(lines.dropLast().last?.hasPrefix("replayed through ") == true, "\(outcome.stdout)")
    }
}
