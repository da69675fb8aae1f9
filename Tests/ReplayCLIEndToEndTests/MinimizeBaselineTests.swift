import Foundation
import Testing

/// `replay-cli minimize --baseline REV` keeps only candidates on which the current code differs from the baseline as
/// on the whole session, and writes the baseline's states: the written session diverges (or crashes the host)
/// through the current code and matches through the baseline.
@Suite struct MinimizeBaselineTests {
    /// `output` with what changes from run to run made fixed: the seconds, the hosts' build lines, the commits.
    private func stable(_ output: String, _ repository: VersionedRepository) -> String {
        var text = output.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("replayed through ") && !$0.hasPrefix("baseline replayed through ") }
            .map { $0.replacingOccurrences(of: #"replayed in [0-9.]+ s"#, with: "replayed in <t> s", options: .regularExpression) }
            .joined(separator: "\n")
        for (index, commit) in repository.commits.enumerated() {
            text = text.replacingOccurrences(of: commit, with: "<commit \(index)>")
                .replacingOccurrences(of: String(commit.prefix(7)), with: "<commit \(index)>")
        }
        return text
    }

    /// The action names of the session at `path`, in order.
    private func actionNames(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").compactMap { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return object?["kind"] as? String == "action" ? object?["name"] as? String : nil
        }
    }

    /// `diff` of the written session through the samples' host with no regression: the baseline's code.
    private func diffThroughTheBaseline(_ small: String) async throws -> CLI.Outcome {
        try await CLI.run(["diff", small, "--no-build"])
    }

    @Test func theRehearsalRegressionKeepsTheSongLengthAndFailsOnlyThroughTheCurrentCode() async throws {
        // Given a repository whose last commit breaks the rehearsal timer's advance to the next song
        let repository = try await VersionedRepository.make([
            .init(subject: "Rehearsals advance to the next song"),
            .init(subject: "Rehearsal timer rework", regression: "rehearsal-advance"),
        ])
        defer { repository.remove() }
        let small = repository.folder.appendingPathComponent("small.jsonl").path
        let session = CLI.session("rehearsals-journey.jsonl")

        // When the journey is minimized against the commit before
        // (A budget far above the search's seconds: a loaded machine must not cut it short.)
        let outcome = try await CLI.run(
            ["minimize", session, "-o", small, "--baseline", "HEAD~1", "--timeout", "1800"], directory: repository.root)

        // Then it says what it was checked against, and what diff does with the written session through each version
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            stable(outcome.stdout, repository) == """
                minimized \(session): 320 -> 22 actions (254 candidates replayed in <t> s)
                checked against baseline <commit 0> "Rehearsals advance to the next song"
                kept: the same change at path.entries[id: 2].element.rehearsal.elapsedInSong, path.entries[id: 2].element.rehearsal.songIndex by path.element.rehearsal.timerTick (step 68 of the original)
                wrote \(small): replay-cli diff \(small) diverges at step 22 through the current code and matches through the baseline <commit 0>

                """)
        #expect(stable(outcome.stderr, repository).contains("minimizing \(session) against the baseline <commit 0> within 1800 s (--timeout)\n"))

        // And the written session keeps the song length the broken branch needs, and names the baseline
        let names = try actionNames(small)
        #expect(names.contains("setlists.addForm.setSongLength"), "\(names)")
        let header = try String(contentsOfFile: small, encoding: .utf8).split(separator: "\n")[0]
        #expect(header.contains(#""baseline":"\#(repository.commits[0])""#), "\(header)")

        // And diff exits 1 through the current code and 0 through the baseline's
        let current = try await CLI.run(["diff", small], directory: repository.root)
        #expect(current.status == 1, "\(current.stdout)\(current.stderr)")
        #expect(current.stdout.contains("\ndiverged at step 22 of 22\n"), "\(current.stdout)")
        let baseline = try await diffThroughTheBaseline(small)
        #expect(baseline.status == 0, "\(baseline.stdout)\(baseline.stderr)")
        #expect(baseline.stdout.contains("\nmatch: 22 states and 10 effect actions equal"), "\(baseline.stdout)")
    }

    @Test func anEffectRegressionShrinksToTheRunThatPostsIt() async throws {
        let repository = try await VersionedRepository.make([
            .init(subject: "Scores are posted"),
            .init(subject: "Failed posts say why", regression: "score-post"),
        ])
        defer { repository.remove() }
        let small = repository.folder.appendingPathComponent("small.jsonl").path
        let session = CLI.session("scoreboard-match.jsonl")

        let outcome = try await CLI.run(
            ["minimize", session, "-o", small, "--baseline", "HEAD~1", "--json"], directory: repository.root)

        #expect(outcome.status == 0, "\(outcome.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        #expect(json["actions"] as? [String: Int] == ["before": 78, "after": 10])
        #expect(json["checkedAgainstBaseline"] as? Bool == true)
        let baselineJSON = try #require(json["baseline"] as? [String: Any])
        #expect(baselineJSON["revision"] as? String == "HEAD~1")
        #expect(baselineJSON["commit"] as? String == repository.commits[0])
        #expect(baselineJSON["subject"] as? String == "Scores are posted")
        let kept = try #require(json["kept"] as? [String: Any])
        #expect(kept["kind"] as? String == "effectDivergence")
        #expect(kept["effect"] as? String == "post score")
        #expect(kept["effectDivergence"] as? String == "actionDiffers")
        #expect(json["reproducedStep"] as? Int == 10)

        let current = try await CLI.run(["diff", small], directory: repository.root)
        #expect(current.status == 1, "\(current.stdout)\(current.stderr)")
        #expect(current.stdout.contains("\neffect diverged at step 10 of 10: \"post score\""), "\(current.stdout)")
        let baseline = try await diffThroughTheBaseline(small)
        #expect(baseline.status == 0, "\(baseline.stdout)\(baseline.stderr)")
    }

    @Test func aCrashShrinksToTheCrashingActionWithTheBaselinesStates() async throws {
        let repository = try await VersionedRepository.make([
            .init(subject: "A counter"),
            .init(subject: "Resets check their bounds", regression: "counter-crash"),
        ])
        defer { repository.remove() }
        let small = repository.folder.appendingPathComponent("small.jsonl").path
        let session = CLI.session("counter-basic.jsonl")
        // (Without a backtrace, a crashing host exits at once rather than after seconds of symbolication.)
        let quiet = ["SWIFT_BACKTRACE": "enable=no"]

        let outcome = try await CLI.run(
            ["minimize", session, "-o", small, "--baseline", "HEAD~1"], environment: quiet, directory: repository.root)

        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            stable(outcome.stdout, repository) == """
                minimized \(session): 40 -> 1 action (2 candidates replayed in <t> s)
                checked against baseline <commit 0> "A counter"
                kept: the host crashes on reset (step 10 of the original)
                wrote \(small): replay-cli diff \(small) crashes the current host at step 1 and matches through the baseline <commit 0>

                """)
        let current = try await CLI.run(["diff", small], environment: quiet, directory: repository.root)
        #expect(current.status == 2)
        #expect(current.stderr.hasPrefix("Error: the replay host crashed (signal "), "\(current.stderr)")
        #expect(current.stderr.contains(") at step 1 (reset) without an answer"), "\(current.stderr)")
        let baseline = try await diffThroughTheBaseline(small)
        #expect(baseline.status == 0, "\(baseline.stdout)\(baseline.stderr)")
    }

    @Test func whenTheCurrentCodeReplaysTheSessionAsTheBaselineThereIsNothingToMinimize() async throws {
        let repository = try await VersionedRepository.make([
            .init(subject: "Rehearsals advance to the next song"),
            .init(subject: "A new icon"),
        ])
        defer { repository.remove() }
        let small = repository.folder.appendingPathComponent("small.jsonl").path
        let session = CLI.session("rehearsals-journey.jsonl")

        let outcome = try await CLI.run(["minimize", session, "-o", small, "--baseline", "HEAD~1"], directory: repository.root)

        #expect(outcome.status == 2)
        #expect(
            stable(outcome.stderr, repository).hasSuffix(
                "Error: \(session): nothing to minimize: the current code replays the session as the baseline <commit 0> \"Rehearsals advance to the next song\" does\n"),
            "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: small))
    }

    @Test func withoutABaselineItRefusesAndSaysHowToGoOn() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let session = CLI.session("todos-basic.jsonl")

        let outcome = try await CLI.run(["minimize", session, "-o", scratch.file("small.jsonl"), "--no-build"])

        #expect(outcome.status == 2)
        #expect(
            outcome.stderr.hasPrefix(
                "Error: minimize needs a correct version of the code to check a smaller session against, and \(session)'s header names no commit it was recorded from: give '--baseline <rev>' (a git revision that replays the session correctly, such as origin/main), or '--without-baseline' to judge by the current code alone, unchecked\nUsage: replay-cli minimize "),
            "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("small.jsonl")))
    }
}
