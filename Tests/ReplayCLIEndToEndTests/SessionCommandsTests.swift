import Foundation
import Testing

@Suite struct SessionCommandsTests {
    @Test func checkListsEverySessionAndWritesJUnit() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let junit = scratch.file("report.xml")
        let outcome = try await CLI.run(["check", "samples/sessions", "--jobs", "2", "--junit", junit, "--no-build"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("✓ match       samples/sessions/todos-basic.jsonl (40 actions)"))
        #expect(outcome.stdout.contains("7 sessions: 7 match"))
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"<testsuites name="replay-cli check" tests="7" failures="0" errors="0">"#))

        let regressed = try await CLI.run(["check", "samples/sessions", "--junit", junit, "--no-build"], environment: ["SAMPLE_HOST_REGRESSION": "todos-toggle"])
        #expect(regressed.status == 1)
        #expect(regressed.stdout.contains("✗ diverged    samples/sessions/todos-basic.jsonl (40 actions): step 5 toggleCompleted(id: \"0BB980A5-75A8-4661-BEC0-8AA83B63F1EE\"), todos[id: 0BB980A5-75A8-4661-BEC0-8AA83B63F1EE].isComplete"))
        #expect(try String(contentsOfFile: junit, encoding: .utf8).contains(#"<failure message="diverged">"#))
    }

    @Test func replayPrintsTheReplayedStateAtAStep() async throws {
        let outcome = try await CLI.run(["replay", CLI.session("counter-basic.jsonl"), "--step", "1", "--json", "--no-build"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let document = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        #expect(document?["step"] as? Int == 1)
        #expect((document?["state"] as? [String: Any])?["count"] != nil)
    }

    @Test func showPrintsTheRecordedStateAtAStep() async throws {
        let initial = try await CLI.run(["show", CLI.session("counter-basic.jsonl"), "--step", "0"])
        #expect(initial.status == 0)
        #expect(initial.stdout == "{\n  \"count\": 0,\n  \"step\": 1\n}\n")
        let missing = try await CLI.run(["show", CLI.session("counter-basic.jsonl"), "--step", "99"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "Error: \(CLI.session("counter-basic.jsonl")) has 40 steps; there is no step 99\n")
    }

    @Test func logListsEveryEvent() async throws {
        let outcome = try await CLI.run(["log", CLI.session("scoreboard-match.jsonl")])
        #expect(outcome.status == 0)
        let lines = outcome.stdout.split(separator: "\n")
        #expect(lines.count == 194)
        #expect(lines.contains { $0.contains("scorePosted") && $0.contains("effect of") })
        #expect(lines.contains { $0.contains("call 1: score.post(") })
        #expect(lines.last?.contains("- end: finished") == true)
    }

    @Test func aReaderThatGoesAwayEndsTheCommandQuietly() async throws {
        // `replay-cli log s.jsonl | head`: stdout is a pipe nobody reads any more.
        let process = Process()
        process.executableURL = CLI.binaries.appendingPathComponent("replay-cli")
        process.arguments = ["log", CLI.session("scoreboard-match.jsonl")]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try out.fileHandleForReading.close()
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 141)
        #expect(stderr.isEmpty, "\(stderr)")
    }

    @Test func statsCountsActionsByNameAndOrigin() async throws {
        let outcome = try await CLI.run(["stats", CLI.session("scoreboard-match.jsonl"), "--json"])
        #expect(outcome.status == 0)
        let document = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        #expect(document?["actions"] as? Int == 78)
        #expect(document?["fromEffects"] as? Int == 38)  // every score but not the two resets
        #expect(document?["status"] as? String == "finished")
    }

    @Test func sessionsListsAFolderNewestFirst() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try scratch.copy("counter-basic.jsonl", as: "a.jsonl")
        _ = try scratch.copy("todos-basic.jsonl", as: "b.jsonl")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: scratch.file("a.jsonl"))
        let outcome = try await CLI.run(["sessions", "--dir", scratch.path])
        #expect(outcome.status == 0)
        let lines = outcome.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[1].contains("todos") && lines[1].contains("40") && lines[1].contains("finished"))
        #expect(lines[2].contains("counter"))
    }

    @Test func verifyListsEveryProblem() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let good = try await CLI.run(["verify", CLI.session("todos-delta.jsonl")])
        #expect(good.status == 0)
        #expect(good.stdout.hasPrefix("ok "))
        var lines = try String(contentsOfFile: CLI.session("counter-basic.jsonl"), encoding: .utf8).split(separator: "\n").map(String.init)
        lines.remove(at: 5)
        lines[2] = lines[2].replacingOccurrences(of: #""kind":"action""#, with: #""kind":"action","colour":"red""#)
        let bad = try scratch.write("bad.jsonl", lines.joined(separator: "\n"))
        let outcome = try await CLI.run(["verify", bad])
        #expect(outcome.status == 2)
        #expect(outcome.stdout.contains("warning \(bad):3: schema: colour: is not a known field"))
        #expect(outcome.stdout.contains("error \(bad):6: seq 6 skips 5 with no 'gap' line for them (the lines before it cover up to 4)"))
        #expect(outcome.stdout.contains("the last line has no newline at the end"))
    }

    @Test func updateAcceptsTheCurrentReducersAndKeepsTheOriginal() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let session = try scratch.copy("todos-basic.jsonl", as: "golden.jsonl")
        let regression = ["SAMPLE_HOST_REGRESSION": "todos-toggle"]
        let update = try await CLI.run(["update", session, "--no-build"], environment: regression)
        #expect(update.status == 0, "\(update.stderr)")
        #expect(update.stdout.contains("the original is kept as \(session).orig"))
        #expect(try await CLI.run(["diff", session, "--no-build"], environment: regression).status == 0)
        #expect(try await CLI.run(["diff", session + ".orig", "--no-build"], environment: regression).status == 1)
    }
}
