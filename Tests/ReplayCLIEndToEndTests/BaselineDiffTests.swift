import Foundation
import Testing

/// `diff --baseline REV` and `check --baseline REV` replay each session through the host built from REV (in a
/// worktree under `.build/replay-baselines`) and through the current one, and report where the two versions first
/// disagree, whatever the recorded states say.
@Suite struct BaselineDiffTests {
    private func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// `text` with the repository's commits named `<1>`, `<2>` … (full or short) and each host summary's
    /// executable and build time left out, which differ from one machine and run to the next.
    private func normalized(_ text: String, _ repository: VersionedRepository) -> String {
        var text = text.replacingOccurrences(
            of: #"replayed through [^ ]+ \(built [^,]+, "#, with: "replayed through <host> (", options: .regularExpression)
        for (index, commit) in repository.commits.enumerated() {
            text = text.replacingOccurrences(of: commit, with: "<\(index + 1)>")
            text = text.replacingOccurrences(of: String(commit.prefix(7)), with: "<\(index + 1)>")
        }
        return text
    }

    @Test func aReducerChangeIsShownAtTheFirstStepWhereTheTwoVersionsDisagree() async throws {
        // Given a repository whose second commit breaks the rehearsal's advance to the next song
        let repository = try await VersionedRepository.make([
            .init(subject: "Rehearsals move on"), .init(subject: "Rework the timer", regression: "rehearsal-advance"),
        ])
        defer { repository.remove() }

        // When diff compares the journey session between the first commit and the current code
        let outcome = try await CLI.run(
            ["diff", "--baseline", "HEAD~1", CLI.session("rehearsals-journey.jsonl")], directory: repository.root)

        // Then it exits 1 and shows the step, the action and the places, - the baseline and + the current code
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(
            normalized(outcome.stdout, repository) == """
                \(CLI.session("rehearsals-journey.jsonl")): changed at step 68 of 320 (path(.element(action: .rehearsal(.timerTick), id: 2)))
                  the current code and the baseline <1> "Rehearsals move on" disagree here, whatever the recording says

                  state after step 68 (- baseline <1>, + current)
                \(RehearsalAdvanceDiff.text)
                replayed through <host> (commit <2>)
                baseline replayed through <host> (commit <1>)

                """)
        // And the baseline's worktree is kept under .build, one per commit, for the next run
        let worktree = repository.root.appendingPathComponent(".build/replay-baselines/\(repository.commits[0])")
        #expect(try VersionedRepository.git(["rev-parse", "HEAD"], in: worktree) == repository.commits[0])
    }

    @Test func twoVersionsThatReplayAlikeAreTheSameWithExit0() async throws {
        let repository = try await VersionedRepository.make([
            .init(subject: "One"), .init(subject: "Two, a change no session sees"),
        ])
        defer { repository.remove() }

        let outcome = try await CLI.run(
            ["diff", "--baseline", "HEAD~1", CLI.session("scoreboard-match.jsonl")], directory: repository.root)

        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(
            normalized(outcome.stdout, repository) == """
                \(CLI.session("scoreboard-match.jsonl")): same: the current code replays all 78 steps as the baseline <1> "One" does, and its 38 effect runs alike
                replayed through <host> (commit <2>)
                baseline replayed through <host> (commit <1>)

                """)
    }

    @Test func anEffectThatSendsOtherwiseIsAChangeEvenWhereTheStatesAgree() async throws {
        let repository = try await VersionedRepository.make([
            .init(subject: "Post scores"), .init(subject: "Reword a failed post", regression: "score-post"),
        ])
        defer { repository.remove() }

        let outcome = try await CLI.run(
            ["diff", "--baseline", repository.commits[0], CLI.session("scoreboard-match.jsonl")], directory: repository.root)

        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(
            normalized(outcome.stdout, repository) == """
                \(CLI.session("scoreboard-match.jsonl")): changed at step 10 of 78: effect "post score", started by step 9 homeScored(points: 1, scorer: "Linus")
                  the current code and the baseline <1> "Post scores" disagree here, whatever the recording says

                  replay with baseline <1>: the effect did as recorded

                  replay with current:
                    the effect sent another action (- recorded at step 10, + sent)
                    - postFailed(reason: "server busy (HTTP 503)")
                    + postFailed(reason: "could not post the score: server busy (HTTP 503)")
                      {
                        "postFailed": {
                    -     "reason": "server busy (HTTP 503)"
                    +     "reason": "could not post the score: server busy (HTTP 503)"
                        }
                      }
                replayed through <host> (commit <2>)
                baseline replayed through <host> (commit <1>)

                """)
    }

    @Test func aHostThatCrashesInOneVersionOnlyIsAChangeAtThatStep() async throws {
        let repository = try await VersionedRepository.make([
            .init(subject: "Counter"), .init(subject: "Reset traps", regression: "counter-crash"),
        ])
        defer { repository.remove() }

        let outcome = try await CLI.run(
            ["diff", "--baseline", "HEAD~1", CLI.session("counter-basic.jsonl"), "--json"], directory: repository.root)

        #expect(outcome.status == 1, "\(outcome.stderr)")
        let document = try json(outcome.stdout)
        #expect(document["verdict"] as? String == "changed")
        #expect((document["baseline"] as? [String: Any])?["commit"] as? String == repository.commits[0])
        #expect((document["baseline"] as? [String: Any])?["revision"] as? String == "HEAD~1")
        let difference = try #require(document["difference"] as? [String: Any])
        #expect(difference["step"] as? Int == 10)
        #expect(difference["action"] as? String == "reset")
        let stopped = try #require(difference["stopped"] as? [String: Any])
        #expect(stopped["first"] is NSNull)
        #expect((stopped["second"] as? String)?.contains("crashed") == true)
    }

    @Test func checkComparesEverySessionOfAFolderForPullRequestCI() async throws {
        let repository = try await VersionedRepository.make([
            .init(subject: "Main"), .init(subject: "The pull request", regression: "rehearsal-advance"),
        ])
        defer { repository.remove() }
        let scratch = try Scratch()
        defer { scratch.remove() }
        for name in ["counter-basic.jsonl", "rehearsals-week.jsonl"] {
            try FileManager.default.copyItem(atPath: CLI.session(name), toPath: scratch.file(name))
        }

        let outcome = try await CLI.run(
            ["check", "--baseline", "main~1", scratch.path, "--junit", scratch.file("junit.xml")], directory: repository.root)

        #expect(outcome.status == 1, "\(outcome.stderr)")
        let lines = normalized(outcome.stdout, repository).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(
            Array(lines.prefix(5)) == [
                "✓ same        \(scratch.file("counter-basic.jsonl")) (40 actions, as the baseline <1>)",
                "✗ changed     \(scratch.file("rehearsals-week.jsonl")) (90 actions): step 68 path(.element(action: .rehearsal(.timerTick), id: 2)), path.entries[id: 2].element.rehearsal.elapsedInSong, path.entries[id: 2].element.rehearsal.songIndex",
                "",
                "\(scratch.file("rehearsals-week.jsonl")): changed at step 68 of 90 (path(.element(action: .rehearsal(.timerTick), id: 2)))",
                "  the current code and the baseline <1> \"Main\" disagree here, whatever the recording says",
            ])
        #expect(
            Array(lines.suffix(5)) == [
                "",
                "2 sessions: 1 changed, 1 same",
                "replayed through <host> (commit <2>)",
                "baseline <1> \"Main\": replayed through <host> (commit <1>)",
                "",
            ])
        let junit = try String(contentsOfFile: scratch.file("junit.xml"), encoding: .utf8)
        #expect(junit.contains("failures=\"1\""))
    }

    @Test(arguments: [
        (["--baseline", "no-such-branch"], "'no-such-branch' names no commit in the git repository"),
        (["--baseline", "recorded"], "'--baseline recorded' needs the commit the session was recorded from, and its header names none"),
    ])
    func aBaselineThatCannotBeFoundIsTroubleNamingIt(_ options: [String], _ message: String) async throws {
        let repository = try await VersionedRepository.make([.init(subject: "One")])
        defer { repository.remove() }

        let outcome = try await CLI.run(["diff"] + options + [CLI.session("counter-basic.jsonl")], directory: repository.root)

        #expect(outcome.status == 2)
        #expect(outcome.stdout.isEmpty)
        #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
    }

    @Test func aBaselineThatDoesNotBuildIsTroubleWithItsBuildErrors() async throws {
        let repository = try await VersionedRepository.make([
            .init(subject: "Broken", builds: false), .init(subject: "Fixed"),
        ])
        defer { repository.remove() }

        let outcome = try await CLI.run(["diff", "--baseline", "HEAD~1", CLI.session("counter-basic.jsonl")], directory: repository.root)

        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("the replay host's build step 'sh build.sh'"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("error: this commit does not build"))
    }

    @Test func aHostOutsideAGitRepositoryHasNoRevisionToBuild() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }

        let outcome = try await CLI.run(
            ["diff", "--baseline", "HEAD", CLI.session("counter-basic.jsonl"), "--host", CLI.sampleHost], directory: scratch.url)

        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("must be in a git repository"), "\(outcome.stderr)")
    }

    /// The journey session as if recorded from `commit`: its header's `app` names it.
    private func journey(recordedFrom commit: String, in scratch: Scratch) throws -> String {
        var lines = try String(contentsOfFile: CLI.session("rehearsals-journey.jsonl"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[0] = lines[0].replacingOccurrences(of: #""app":{"#, with: #""app":{"commit":"\#(commit)","#)
        return try scratch.write("journey.jsonl", lines.joined(separator: "\n"))
    }

    @Test func recordedBuildsTheCommitTheSessionWasRecordedFrom() async throws {
        // Given a session recorded from the first commit, replayed after the second broke the timer
        let repository = try await VersionedRepository.make([
            .init(subject: "Rehearsals move on"), .init(subject: "Rework the timer", regression: "rehearsal-advance"),
        ])
        defer { repository.remove() }
        let scratch = try Scratch()
        defer { scratch.remove() }
        let session = try journey(recordedFrom: repository.commits[0], in: scratch)
        try FileManager.default.copyItem(atPath: CLI.session("counter-basic.jsonl"), toPath: scratch.file("no-commit.jsonl"))

        // When diff and check compare it with the commit it was recorded from
        let diff = try await CLI.run(["diff", "--baseline", "recorded", session, "--json"], directory: repository.root)
        let check = try await CLI.run(["check", "--baseline", "recorded", scratch.path, "--json"], directory: repository.root)

        // Then the baseline is that commit, the session changed, and a session without a commit is that session's error
        #expect(diff.status == 1, "\(diff.stderr)")
        let baseline = try #require(try json(diff.stdout)["baseline"] as? [String: Any])
        #expect(baseline["commit"] as? String == repository.commits[0])
        #expect(baseline["revision"] as? String == repository.commits[0])
        #expect(check.status == 2, "\(check.stderr)")
        let sessions = try #require(try json(check.stdout)["sessions"] as? [[String: Any]])
        #expect(sessions.map { $0["verdict"] as? String } == ["changed", "error"])
        #expect((sessions[1]["error"] as? String)?.contains("its header names none") == true)
    }

    @Test func theIdentityKeysOfReplayJSONNameTheElementsOfBothVersions() async throws {
        // Given a todo list identified by toDoID, whose second commit inserts a new todo first
        let repository = try await VersionedRepository.make([
            .init(subject: "Todos"), .init(subject: "Newest first", regression: "todo-insert"),
        ])
        defer { repository.remove() }
        let scratch = try Scratch()
        defer { scratch.remove() }
        try Data(#"{"host": "sh host.sh", "build": "sh build.sh", "identity": {"todos": "toDoID"}}"#.utf8)
            .write(to: repository.root.appendingPathComponent(".replay.json"))
        let session = try IdentityKeyTests.toDoSession(in: scratch)

        // When diff compares the two versions
        let outcome = try await CLI.run(["diff", "--baseline", "HEAD~1", session], directory: repository.root)

        // Then the new todo is one that moved, named by its toDoID, not six changed fields
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("  1 difference: todos[id: t3]  moved from 2 to 0\n"), "\(outcome.stdout)")
    }
}
