import Foundation
import Testing

/// Steps are sequence numbers: a session with gaps has more steps than actions, and `diff` and `replay --step`
/// count and find them as such.
@Suite struct GappedStepsTests {
    /// The samples' `counter-basic.jsonl` (40 steps) with steps 3-12 dropped, step 36 recorded with a count of 99 (the
    /// reducer makes 10), and steps 38-40 left unwritten when its finish timed out: 27 actions over 40 steps.
    static func gappedCounterSession() throws -> String {
        let sample = try String(contentsOfFile: CLI.session("counter-basic.jsonl"), encoding: .utf8)
        let lines = sample.split(separator: "\n").map(String.init)
        let gapped =
            [lines[0]] + lines[1...2]
            + [#"{"count":10,"from":3,"kind":"gap","reason":"bufferFull","to":12}"#] + lines[13...35]
            + [lines[36].replacingOccurrences(of: #""count":10,"#, with: #""count":99,"#), lines[37]]
            + [
                #"{"count":3,"from":38,"kind":"gap","reason":"timedOut","to":40}"#,
                #"{"actions":40,"dropped":13,"kind":"end","reason":"timedOut","time":0.05}"#,
            ]
        let path = "/tmp/skr-steps-\(UUID().uuidString.prefix(8)).jsonl"
        try Data((gapped.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The samples' `counter-basic.jsonl` with steps 3-12 in a gap that keeps their actions without their states.
    static func keptGapCounterSession() throws -> String {
        let sample = try String(contentsOfFile: CLI.session("counter-basic.jsonl"), encoding: .utf8)
        let lines = sample.split(separator: "\n").map(String.init)
        let kept = try lines[3...12].map { line in
            var action = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            action["kind"] = nil
            action["state"] = nil
            return String(decoding: try JSONSerialization.data(withJSONObject: action, options: .sortedKeys), as: UTF8.self)
        }
        let gap = #"{"actions":["# + kept.joined(separator: ",") + #"],"count":10,"from":3,"kind":"gap","reason":"bufferFull","to":12}"#
        let path = "/tmp/skr-kept-\(UUID().uuidString.prefix(8)).jsonl"
        try Data(([lines[0]] + lines[1...2] + [gap] + lines[13...]).map { $0 + "\n" }.joined().utf8)
            .write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aDivergenceAfterAGapIsCountedOutOfTheSessionsStepsNotItsActions() async throws {
        // Given a session of 27 actions over 40 steps that diverges at step 36
        let path = try Self.gappedCounterSession()
        defer { try? FileManager.default.removeItem(atPath: path) }

        // When it is diffed
        let outcome = try await CLI.run(["diff", path, "--no-build"])

        // Then the divergence is step 36 of 40, never a step past the end
        #expect(outcome.status == 1, "\(outcome.stderr)")
        let text = outcome.stdout.replacingOccurrences(of: path, with: "<session>")
            .replacingOccurrences(of: #"replayed through .*"#, with: "replayed through <host>", options: .regularExpression)
        #expect(
            text == """
                <session>: store "counter", 27 actions, recorded by SampleApp 1.0 (build 1) on 2026-11-22, its finish timed out (end timedOut)
                diverged at step 36 of 40
                  action  increment    (from the app, 0.000 s in)
                  before  34 increment
                  before  35 setStep(2)
                  note    the session also has 2 gaps (steps 3-12: bufferFull; steps 38-40: timedOut)

                  state after step 36 (- recorded, + replayed)
                    {
                  -   "count": 99,
                  +   "count": 10,
                      "step": 2
                    }
                  1 difference: count  99 -> 10
                replayed through <host>

                """)
    }

    @Test func replayStopsAtAStepPastTheActionsCountAndRefusesOneAGapCoversOrPastTheEnd() async throws {
        // Given a session of 27 actions over 40 steps, steps 3-12 and 38-40 in gaps
        let path = try Self.gappedCounterSession()
        defer { try? FileManager.default.removeItem(atPath: path) }

        // When it is replayed to step 30, which is past its count of actions
        let step = try await CLI.run(["replay", path, "--step", "30", "--json", "--no-build"])

        // Then that step's state is printed
        #expect(step.status == 0, "\(step.stderr)")
        let document = try JSONSerialization.jsonObject(with: Data(step.stdout.utf8)) as? [String: Any]
        #expect(document?["step"] as? Int == 30)
        #expect(document?["state"] as? [String: Int] == ["count": 0, "step": 2])

        // And replayed to its end, the state is that after step 37, its last action, and says so
        let end = try await CLI.run(["replay", path, "--json", "--no-build"])
        #expect(end.status == 0, "\(end.stderr)")
        let last = try JSONSerialization.jsonObject(with: Data(end.stdout.utf8)) as? [String: Any]
        #expect(last?["step"] as? Int == 37)
        #expect(last?["state"] as? [String: Int] == ["count": 12, "step": 2])

        // And a step the gap covers, or one past the last, is refused with the reason instead of another step's state
        let inGap = try await CLI.run(["replay", path, "--step", "5", "--no-build"])
        #expect(inGap.status == 2)
        #expect(inGap.stdout.isEmpty)
        #expect(
            inGap.stderr
                == "Error: \(path) holds no state for step 5: a gap covers steps 3-12 (bufferFull); the last step before it is 2\n")
        let pastTheEnd = try await CLI.run(["replay", path, "--step", "41", "--no-build"])
        #expect(pastTheEnd.status == 2)
        #expect(pastTheEnd.stderr == "Error: \(path) has 40 steps; there is no step 41\n")
    }

    @Test func showRefusesAStepAGapCoversNamingItAndOnePastTheEndCountingEveryStep() async throws {
        // Given a session of 27 actions over 40 steps
        let path = try Self.gappedCounterSession()
        defer { try? FileManager.default.removeItem(atPath: path) }

        // When its recorded state is asked for at a step the gap covers, and at one past the last
        let inGap = try await CLI.run(["show", path, "--step", "5"])
        let pastTheEnd = try await CLI.run(["show", path, "--step", "41"])

        // Then each is refused with what the session holds, never a count of the actions read so far
        #expect(inGap.status == 2)
        #expect(
            inGap.stderr
                == "Error: \(path) holds no state for step 5: a gap covers steps 3-12 (bufferFull); the last step before it is 2\n")
        #expect(pastTheEnd.status == 2)
        #expect(pastTheEnd.stderr == "Error: \(path) has 40 steps; there is no step 41\n")
    }

    @Test func replayRunsThroughTheActionsAGapKeptToAStepInItAndSaysNoStateWasRecordedThere() async throws {
        // Given the counter sample with steps 3-12 in a gap that kept their actions without their states
        let path = try Self.keptGapCounterSession()
        defer { try? FileManager.default.removeItem(atPath: path) }

        // When it is replayed to step 5, inside the gap
        let kept = try await CLI.run(["replay", path, "--step", "5", "--no-build"])
        let whole = try await CLI.run(["replay", CLI.session("counter-basic.jsonl"), "--step", "5", "--no-build"])

        // Then it prints the state the whole sample replays to at step 5, and notes that no state was recorded there
        #expect(kept.status == 0, "\(kept.stderr)")
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(kept.stdout == whole.stdout)
        let note = kept.stderr.replacingOccurrences(
            of: #"replayed through .*"#, with: "replayed through <host>", options: .regularExpression)
        #expect(
            note == """
                note: step 5 is in a gap of steps 3-12 (bufferFull) that kept its actions without their states: this state is the replay's alone, with no recorded one to compare
                replayed through <host>

                """)
        let json = try await CLI.run(["replay", path, "--step", "5", "--json", "--no-build"])
        let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(document?["step"] as? Int == 5)
        #expect(document?["stateRecorded"] as? Bool == false)

        // And `show`, which prints recorded states, refuses the step and points to `replay`
        let show = try await CLI.run(["show", path, "--step", "5"])
        #expect(show.status == 2)
        #expect(
            show.stderr
                == "Error: \(path) holds no state for step 5: a gap covers steps 3-12 (bufferFull); the last step before it is 2. The gap keeps its actions without their states: 'replay-cli replay --step 5' replays them to that step\n")
    }
}
