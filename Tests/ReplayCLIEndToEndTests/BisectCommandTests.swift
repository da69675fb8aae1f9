import Foundation
import Testing

/// `replay-cli bisect` on a temporary repository whose commits switch the samples' host between regressions
/// (``VersionedRepository``): it names the first commit whose replay changes, skips commits that do not build, and
/// refuses what it cannot search.
@Suite struct BisectCommandTests {
    /// Eight commits named `Commit 1` to `Commit 8`, from the fifth on with `regression`, and the ones in `broken` not
    /// building.
    private func repository(breakingWith regression: String, broken: Set<Int> = []) async throws -> VersionedRepository {
        try await VersionedRepository.make(
            (1...8).map { number in
                VersionedRepository.Commit(
                    subject: "Commit \(number)", regression: number >= 5 ? regression : "", builds: !broken.contains(number))
            })
    }

    /// Runs bisect in `repository`'s working tree on a copy of the sample session `session` (untracked there).
    private func bisect(
        _ repository: VersionedRepository, _ session: String, _ arguments: [String]
    ) async throws -> CLI.Outcome {
        try FileManager.default.copyItem(
            atPath: CLI.session(session), toPath: repository.root.appendingPathComponent(session).path)
        return try await CLI.run(["bisect", session] + arguments, directory: repository.root)
    }

    /// `text` with each commit's hash written `<hash N>` (in full) or `<N>` (its first seven digits), and the
    /// repository's folder `<repo>`.
    private func stable(_ text: String, _ repository: VersionedRepository) -> String {
        var text = text.replacingOccurrences(of: repository.folder.path, with: "<repo>")
        for (number, hash) in zip(1..., repository.commits) {
            text = text.replacingOccurrences(of: hash, with: "<hash \(number)>")
                .replacingOccurrences(of: String(hash.prefix(7)), with: "<\(number)>")
        }
        return text
    }

    @Test func namesTheFifthCommitWhenItBreaksAReducer() async throws {
        // Given eight commits, the fifth switching on the rehearsal reducer's regression
        let repository = try await repository(breakingWith: "rehearsal-advance")
        defer { repository.remove() }

        // When bisecting from the first to HEAD
        let outcome = try await bisect(repository, "rehearsals-journey.jsonl", ["--good", repository.commits[0]])

        // Then the fifth is named, with the state that first differs there, after four tests
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(stable(outcome.stdout, repository) == #"""
            first changing commit: <hash 5> "Commit 5"
            rehearsals-journey.jsonl: changed at step 68 of 320 (path(.element(action: .rehearsal(.timerTick), id: 2)))
              <5> replays it otherwise than good <1> "Commit 1"; the commit before it, <4>, replays it as good does

              state after step 68 (- good <1>, + <5>)
            \#(RehearsalAdvanceDiff.text)

            tested 4 of 7 commits after good <1> "Commit 1":
              <8> "Commit 8": changed at step 68 (path(.element(action: .rehearsal(.timerTick), id: 2)))
              <4> "Commit 4": same
              <6> "Commit 6": changed at step 68 (path(.element(action: .rehearsal(.timerTick), id: 2)))
              <5> "Commit 5": changed at step 68 (path(.element(action: .rehearsal(.timerTick), id: 2)))

            """#)
        #expect(stable(outcome.stderr, repository) == #"""
            bisecting rehearsals-journey.jsonl: 7 commits after good <1> "Commit 1", up to bad <8> "Commit 8"
            good <1> "Commit 1": replays all 320 steps, the reference
            bad <8> "Commit 8": changed at step 68 (path(.element(action: .rehearsal(.timerTick), id: 2)))
            7 commits left (about 3 steps), <4> "Commit 4": same
            4 commits left (about 2 steps), <6> "Commit 6": changed at step 68 (path(.element(action: .rehearsal(.timerTick), id: 2)))
            2 commits left (about 1 step), <5> "Commit 5": changed at step 68 (path(.element(action: .rehearsal(.timerTick), id: 2)))

            """#)
    }

    @Test func namesTheFifthCommitWhenItBreaksAnEffect() async throws {
        // Given eight commits, the fifth switching on the score poster's regression
        let repository = try await repository(breakingWith: "score-post")
        defer { repository.remove() }

        // When bisecting the scoreboard match from the first to HEAD
        let outcome = try await bisect(repository, "scoreboard-match.jsonl", ["--good", repository.commits[0]])

        // Then the fifth is named, with what the effect run did otherwise in each replay
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(stable(outcome.stdout, repository) == #"""
            first changing commit: <hash 5> "Commit 5"
            scoreboard-match.jsonl: changed at step 10 of 78: effect "post score", started by step 9 homeScored(points: 1, scorer: "Linus")
              <5> replays it otherwise than good <1> "Commit 1"; the commit before it, <4>, replays it as good does

              replay with good <1>: the effect did as recorded

              replay with <5>:
                the effect sent another action (- recorded at step 10, + sent)
                - postFailed(reason: "server busy (HTTP 503)")
                + postFailed(reason: "could not post the score: server busy (HTTP 503)")
                  {
                    "postFailed": {
                -     "reason": "server busy (HTTP 503)"
                +     "reason": "could not post the score: server busy (HTTP 503)"
                    }
                  }

            tested 4 of 7 commits after good <1> "Commit 1":
              <8> "Commit 8": changed at step 10: effect "post score" of step 9
              <4> "Commit 4": same
              <6> "Commit 6": changed at step 10: effect "post score" of step 9
              <5> "Commit 5": changed at step 10: effect "post score" of step 9

            """#)
        #expect(stable(outcome.stderr, repository) == #"""
            bisecting scoreboard-match.jsonl: 7 commits after good <1> "Commit 1", up to bad <8> "Commit 8"
            good <1> "Commit 1": replays all 78 steps, the reference
            bad <8> "Commit 8": changed at step 10: effect "post score" of step 9
            7 commits left (about 3 steps), <4> "Commit 4": same
            4 commits left (about 2 steps), <6> "Commit 6": changed at step 10: effect "post score" of step 9
            2 commits left (about 1 step), <5> "Commit 5": changed at step 10: effect "post score" of step 9

            """#)
    }

    @Test func aCommitThatDoesNotBuildRightAfterTheBreakIsSkippedAndTheResultStaysExact() async throws {
        // Given the reducer break in the fifth commit, and the sixth not building
        let repository = try await repository(breakingWith: "rehearsal-advance", broken: [6])
        defer { repository.remove() }

        // When bisecting
        let outcome = try await bisect(repository, "rehearsals-journey.jsonl", ["--good", repository.commits[0]])

        // Then the sixth is skipped, said so, and the fifth is still named
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(stable(outcome.stdout, repository) == #"""
            first changing commit: <hash 5> "Commit 5"
            rehearsals-journey.jsonl: changed at step 68 of 320 (path(.element(action: .rehearsal(.timerTick), id: 2)))
              <5> replays it otherwise than good <1> "Commit 1"; the commit before it, <4>, replays it as good does

              state after step 68 (- good <1>, + <5>)
            \#(RehearsalAdvanceDiff.text)

            tested 4 of 7 commits after good <1> "Commit 1":
              <8> "Commit 8": changed at step 68 (path(.element(action: .rehearsal(.timerTick), id: 2)))
              <4> "Commit 4": same
              <6> "Commit 6": does not build, skipped
              <5> "Commit 5": changed at step 68 (path(.element(action: .rehearsal(.timerTick), id: 2)))

            """#)
        #expect(stable(outcome.stderr, repository) == #"""
            bisecting rehearsals-journey.jsonl: 7 commits after good <1> "Commit 1", up to bad <8> "Commit 8"
            good <1> "Commit 1": replays all 320 steps, the reference
            bad <8> "Commit 8": changed at step 68 (path(.element(action: .rehearsal(.timerTick), id: 2)))
            7 commits left (about 3 steps), <4> "Commit 4": same
            4 commits left (about 2 steps), <6> "Commit 6": does not build, skipped
            4 commits left (about 2 steps), <5> "Commit 5": changed at step 68 (path(.element(action: .rehearsal(.timerTick), id: 2)))

            """#)
    }

    @Test func aCommitWhoseHostCrashesOnTheSessionChanges() async throws {
        // Given eight commits, the fifth making the counter's reset crash the host
        let repository = try await repository(breakingWith: "counter-crash")
        defer { repository.remove() }

        // When bisecting the counter session
        let outcome = try await bisect(repository, "counter-basic.jsonl", ["--good", repository.commits[0]])

        // Then the crash is a change, and the fifth is named with the step its host stopped at
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let lines = stable(outcome.stdout, repository).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.prefix(3).joined(separator: "\n") == #"""
            first changing commit: <hash 5> "Commit 5"
            counter-basic.jsonl: changed at step 10 of 40 (reset)
              <5> replays it otherwise than good <1> "Commit 1"; the commit before it, <4>, replays it as good does
            """#)
        #expect(lines.contains { $0.hasPrefix("  good <1>: replayed it") })
        #expect(lines.contains { $0.hasPrefix("  <5>: stopped: ") })
        #expect(lines.suffix(6).joined(separator: "\n") == #"""
            tested 4 of 7 commits after good <1> "Commit 1":
              <8> "Commit 8": changed at step 10 (reset): the host of <8> stopped
              <4> "Commit 4": same
              <6> "Commit 6": changed at step 10 (reset): the host of <6> stopped
              <5> "Commit 5": changed at step 10 (reset): the host of <5> stopped

            """#)
    }

    @Test func theJSONNamesTheCommitTheTestsAndTheSkippedOnes() async throws {
        // Given the reducer break in the fifth commit, and the sixth not building
        let repository = try await repository(breakingWith: "rehearsal-advance", broken: [6])
        defer { repository.remove() }

        // When bisecting with --json
        let outcome = try await bisect(
            repository, "rehearsals-journey.jsonl", ["--good", repository.commits[0], "--json"])

        // Then the document holds the verdict, the commit, the difference, and each commit tested in order
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        #expect(document["verdict"] as? String == "found")
        #expect((document["commit"] as? [String: Any])?["commit"] as? String == repository.commits[4])
        #expect((document["commit"] as? [String: Any])?["subject"] as? String == "Commit 5")
        #expect((document["difference"] as? [String: Any])?["step"] as? Int == 68)
        #expect((document["good"] as? [String: Any])?["steps"] as? Int == 320)
        let tested = try #require(document["tested"] as? [[String: Any]])
        #expect(tested.map { stable($0["commit"] as? String ?? "", repository) } == ["<hash 8>", "<hash 4>", "<hash 6>", "<hash 5>"])
        #expect(tested.map { $0["verdict"] as? String } == ["changed", "same", "skipped", "changed"])
        let skipped = try #require(document["skipped"] as? [[String: Any]])
        #expect(skipped.map { $0["subject"] as? String } == ["Commit 6"])
        #expect(skipped.map { $0["reason"] as? String } == ["does not build"])
        #expect((skipped.first?["error"] as? String)?.contains("error: this commit does not build") == true)
    }

    @Test func aCommitThatDoesNotBuildRightBeforeTheBreakLeavesBothAsCandidates() async throws {
        // Given the reducer break in the fifth commit, and the fourth not building
        let repository = try await repository(breakingWith: "rehearsal-advance", broken: [4])
        defer { repository.remove() }

        // When bisecting
        let outcome = try await bisect(repository, "rehearsals-journey.jsonl", ["--good", repository.commits[0]])

        // Then it does not guess: the fourth and the fifth are listed, and it exits 2
        #expect(outcome.status == 2, "\(outcome.stderr)")
        #expect(stable(outcome.stdout, repository) == #"""
            skipped commits leave the first changing commit open: it is one of these 2, oldest first
              <hash 4> "Commit 4": does not build, skipped
              <hash 5> "Commit 5": changed at step 68 (path(.element(action: .rehearsal(.timerTick), id: 2)))
            test the skipped ones another way, or bisect again with --good or --bad next to them

            tested 4 of 7 commits after good <1> "Commit 1":
              <8> "Commit 8": changed at step 68 (path(.element(action: .rehearsal(.timerTick), id: 2)))
              <4> "Commit 4": does not build, skipped
              <3> "Commit 3": same
              <5> "Commit 5": changed at step 68 (path(.element(action: .rehearsal(.timerTick), id: 2)))

            """#)
        #expect(stable(outcome.stderr, repository) == #"""
            bisecting rehearsals-journey.jsonl: 7 commits after good <1> "Commit 1", up to bad <8> "Commit 8"
            good <1> "Commit 1": replays all 320 steps, the reference
            bad <8> "Commit 8": changed at step 68 (path(.element(action: .rehearsal(.timerTick), id: 2)))
            7 commits left (about 3 steps), <4> "Commit 4": does not build, skipped
            7 commits left (about 3 steps), <3> "Commit 3": same
            5 commits left (about 3 steps), <5> "Commit 5": changed at step 68 (path(.element(action: .rehearsal(.timerTick), id: 2)))

            """#)
    }

    @Test func badReplayingAsGoodIsNothingToFind() async throws {
        // Given eight commits none of which changes the host
        let repository = try await repository(breakingWith: "")
        defer { repository.remove() }

        // When bisecting
        let outcome = try await bisect(repository, "rehearsals-journey.jsonl", ["--good", repository.commits[0]])

        // Then it says bad replays as good does, after testing bad alone, and exits 1
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(stable(outcome.stdout, repository) == #"""
            nothing to find: bad <8> "Commit 8" replays rehearsals-journey.jsonl as good <1> "Commit 1" does (all 320 steps, and its 11 effect runs alike)

            tested 1 of 7 commits after good <1> "Commit 1":
              <8> "Commit 8": same

            """#)
        #expect(stable(outcome.stderr, repository) == #"""
            bisecting rehearsals-journey.jsonl: 7 commits after good <1> "Commit 1", up to bad <8> "Commit 8"
            good <1> "Commit 1": replays all 320 steps, the reference
            bad <8> "Commit 8": same

            """#)
    }

    @Test func aRangeThatCannotBeSearchedIsRefusedNamingTheRevision() async throws {
        // Given eight commits
        let repository = try await repository(breakingWith: "rehearsal-advance")
        defer { repository.remove() }

        // When --good names no commit, then a later commit than bad, then bad itself
        let unknown = try await bisect(repository, "rehearsals-journey.jsonl", ["--good", "no-such-revision"])
        let later = try await CLI.run(
            ["bisect", "rehearsals-journey.jsonl", "--good", "HEAD", "--bad", "HEAD~2"], directory: repository.root)
        let same = try await CLI.run(
            ["bisect", "rehearsals-journey.jsonl", "--good", "HEAD", "--bad", repository.commits[7]], directory: repository.root)

        // Then each exits 2 naming the revision, before building anything
        #expect(unknown.status == 2)
        #expect(stable(unknown.stderr, repository) == #"""
            Error: 'no-such-revision' names no commit in the git repository <repo>/app

            """#)
        #expect(later.status == 2)
        #expect(stable(later.stderr, repository) == #"""
            Error: the good revision 'HEAD' (<8>) is not an ancestor of the bad one 'HEAD~2' (<6>): bisect searches the commits from good to bad

            """#)
        #expect(same.status == 2)
        #expect(stable(same.stderr, repository) == #"""
            Error: the good revision 'HEAD' (<8>) and the bad one '<hash 8>' (<8>) are the same commit: there is nothing between them to search

            """#)
        #expect(unknown.stdout + later.stdout + same.stdout == "")
    }
}
