import Foundation
import Testing

/// The host's build step runs before every replay, a failed build stops the replay with the compiler's error lines,
/// and `--no-build` skips it. A host named by `--host` has no build step unless `--build` or `REPLAY_BUILD` gives one.
@Suite struct HostBuildTests {
    private let sampleHost = CLI.binaries.appendingPathComponent("sample-replay-host").path

    private func buildCount(_ scratch: Scratch) throws -> Int {
        guard FileManager.default.fileExists(atPath: scratch.file("builds.log")) else { return 0 }
        return try String(contentsOfFile: scratch.file("builds.log"), encoding: .utf8).split(separator: "\n").count
    }

    @Test func theBuildStepRunsBeforeEveryReplayUnlessSkipped() async throws {
        // Given a host with a build step that leaves a mark each time it runs
        let scratch = try Scratch()
        defer { scratch.remove() }
        let session = CLI.session("counter-basic.jsonl")
        let build = ["--host", sampleHost, "--build", "echo built >> builds.log"]

        // When each replaying command runs, then the build ran before each of them
        #expect(try await CLI.run(["diff", session] + build, directory: scratch.url).status == 0)
        #expect(try await CLI.run(["diff", session] + build, directory: scratch.url).status == 0)
        #expect(try await CLI.run(["replay", session] + build, directory: scratch.url).status == 0)
        #expect(try await CLI.run(["check", session] + build, directory: scratch.url).status == 0)
        #expect(try buildCount(scratch) == 4)

        // And --no-build skips it, as does a --host without a build step
        #expect(try await CLI.run(["diff", session, "--no-build"] + build, directory: scratch.url).status == 0)
        #expect(try await CLI.run(["diff", session, "--host", sampleHost], directory: scratch.url).status == 0)
        #expect(try buildCount(scratch) == 4)

        // And REPLAY_BUILD gives a host from REPLAY_HOST its build step
        let fromEnvironment = try await CLI.run(
            ["diff", session], environment: ["REPLAY_HOST": sampleHost, "REPLAY_BUILD": "echo built >> builds.log"],
            directory: scratch.url)
        #expect(fromEnvironment.status == 0, "\(fromEnvironment.stderr)")
        #expect(try buildCount(scratch) == 5)
    }

    @Test func aFailedBuildIsTroubleWithTheCompilersErrorLinesAndNothingReplayed() async throws {
        // Given a build that prints 300 lines of progress, one error with its source excerpt, and 200 lines more
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write(
            "build.sh",
            """
            #!/bin/sh
            i=1; while [ $i -le 300 ]; do echo "[$i/500] Compiling Noise$i.swift"; i=$((i+1)); done
            cat >&2 <<'EOS'
            /src/Todos.swift:78:21: error: cannot find 'indx' in scope
             77 |             if let index = state.todos.firstIndex(where: { $0.id == id }) {
             78 |                 _ = indx
                |                     `- error: cannot find 'indx' in scope
             79 |             }
            EOS
            i=1; while [ $i -le 200 ]; do echo "[$i/200] Linking"; i=$((i+1)); done
            exit 1
            """, executable: true)

        // When diff runs with it
        let outcome = try await CLI.run(
            ["diff", CLI.session("counter-basic.jsonl"), "--host", sampleHost, "--build", "./build.sh"], directory: scratch.url)

        // Then it exits 2 with the error lines (the header and the one under the source line) and a few lines
        // around them, and says what it left out
        #expect(outcome.status == 2)
        #expect(outcome.stdout == "")
        #expect(
            outcome.stderr == """
                Error: the replay host's build step './build.sh' (from --build, in \(scratch.path)) failed with status 1; nothing was replayed:
                ... (298 lines omitted)
                [299/500] Compiling Noise299.swift
                [300/500] Compiling Noise300.swift
                /src/Todos.swift:78:21: error: cannot find 'indx' in scope
                 77 |             if let index = state.todos.firstIndex(where: { $0.id == id }) {
                 78 |                 _ = indx
                    |                     `- error: cannot find 'indx' in scope
                 79 |             }
                [1/200] Linking
                [2/200] Linking
                [3/200] Linking
                [4/200] Linking
                [5/200] Linking
                ... (195 lines omitted)

                """)
    }

    @Test func aFailedBuildWithoutErrorLinesShowsItsLastLines() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let outcome = try await CLI.run(
            ["diff", CLI.session("counter-basic.jsonl"), "--host", sampleHost, "--build", "seq 1 25; exit 3"],
            directory: scratch.url)
        #expect(outcome.status == 2)
        #expect(
            outcome.stderr == "Error: the replay host's build step 'seq 1 25; exit 3' (from --build, in \(scratch.path)) "
                + "failed with status 3; nothing was replayed:\n... (5 lines omitted)\n"
                + (6...25).map(String.init).joined(separator: "\n") + "\n")
    }
}
