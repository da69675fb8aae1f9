import Foundation
import Testing

/// `diff --determinism` and `check --determinism` replay each session in two hosts with different hash seeds and
/// report `nondeterministic` where the replays disagree, before any regression verdict.
@Suite struct DeterminismTests {
    private func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test(arguments: [
        ("nondeterministic-set", "todos[id: 0BB980A5-75A8-4661-BEC0-8AA83B63F1EE].title"),
        ("nondeterministic-clock", "todos[id: 0BB980A5-75A8-4661-BEC0-8AA83B63F1EE].createdAt"),
    ])
    func aReducerThatReadsTheHashSeedOrTheClockIsCaught(_ variant: String, _ path: String) async throws {
        // Given a todo reducer that, on a toggle, iterates a Set into a String or reads the clock
        let environment = ["SAMPLE_HOST_REGRESSION": variant]

        // When diff replays the todos session with --determinism
        let outcome = try await CLI.run(
            ["diff", "--determinism", CLI.session("todos-basic.jsonl"), "--no-build", "--json"], environment: environment)

        // Then the verdict is nondeterministic at the first toggle, naming the path, and the exit status is 1
        #expect(outcome.status == 1, "\(outcome.stdout)\(outcome.stderr)")
        let document = try json(outcome.stdout)
        #expect(document["verdict"] as? String == "nondeterministic")
        let finding = try #require(document["nondeterministic"] as? [String: Any])
        #expect(finding["step"] as? Int == 5)
        #expect(finding["action"] as? String == "toggleCompleted")
        #expect((finding["changes"] as? [[String: Any]])?.compactMap { $0["path"] as? String } == [path])
    }

    @Test func theTextNamesTheStepTheActionAndWhyBeforeTheDiff() async throws {
        let outcome = try await CLI.run(
            ["diff", "--determinism", CLI.session("todos-basic.jsonl"), "--no-build"],
            environment: ["SAMPLE_HOST_REGRESSION": "nondeterministic-clock"])
        #expect(outcome.status == 1)
        let lines = outcome.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(
            Array(lines.prefix(5)) == [
                "\(CLI.session("todos-basic.jsonl")): nondeterministic at step 5 of 40 (toggleCompleted(id: \"0BB980A5-75A8-4661-BEC0-8AA83B63F1EE\"))",
                "  two replays of the same actions disagree, so a diff against the recording means nothing until this is fixed",
                "  the reducer reads something besides its state and action: the clock, a Set's or Dictionary's order, a random number",
                "",
                "  state after step 5 (- SWIFT_DETERMINISTIC_HASHING=1, + a random hash seed)",
            ])
        // and the two dates read as ISO 8601, as the host's replies say where its states hold dates
        let date = #/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/#
        let difference = try #require(lines.first { $0.hasPrefix("  1 difference: todos[id: 0BB980A5-75A8-4661-BEC0-8AA83B63F1EE].createdAt  ") })
        let values = difference.dropFirst("  1 difference: todos[id: 0BB980A5-75A8-4661-BEC0-8AA83B63F1EE].createdAt  ".count)
        let sides = values.components(separatedBy: " -> ")
        #expect(sides.count == 2 && sides.allSatisfy { $0.wholeMatch(of: date) != nil }, "\(difference)")
    }

    @Test func nondeterminismComesBeforeARegression() async throws {
        // Given the set variant, whose toggles also differ from the recording (a regression too)
        let outcome = try await CLI.run(
            ["diff", "--determinism", CLI.session("todos-basic.jsonl"), "--no-build", "--json"],
            environment: ["SAMPLE_HOST_REGRESSION": "nondeterministic-set"])
        #expect(try json(outcome.stdout)["verdict"] as? String == "nondeterministic")
        // And without --determinism the same host is only "diverged"
        let plain = try await CLI.run(
            ["diff", CLI.session("todos-basic.jsonl"), "--no-build", "--json"], environment: ["SAMPLE_HOST_REGRESSION": "nondeterministic-set"])
        #expect(plain.status == 1)
        #expect((try json(plain.stdout)["report"] as? [String: Any])?["verdict"] as? String == "diverged")
    }

    @Test func pureReducersAreNeverFlagged() async throws {
        // Given every sample session and the samples' pure reducers, checked five times over
        for _ in 1...5 {
            let outcome = try await CLI.run(["check", "--determinism", CLI.packageRoot.appendingPathComponent("samples/sessions").path, "--no-build"])
            #expect(outcome.status == 0, "\(outcome.stdout)")
            #expect(outcome.stdout.contains("\n7 sessions: 7 match\n"), "\(outcome.stdout)")
        }
    }

    @Test func aRegressionIsStillDivergedWhenTheReducerIsDeterministic() async throws {
        let outcome = try await CLI.run(
            ["diff", "--determinism", CLI.session("todos-basic.jsonl"), "--no-build", "--json"],
            environment: ["SAMPLE_HOST_REGRESSION": "todos-toggle"])
        #expect(outcome.status == 1)
        #expect((try json(outcome.stdout)["report"] as? [String: Any])?["verdict"] as? String == "diverged")
    }

    @Test func checkShowsTheVerdictInTextJSONAndJUnit() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let session = try scratch.copy("todos-basic.jsonl", as: "todos.jsonl")
        let junit = scratch.file("junit.xml")
        let environment = ["SAMPLE_HOST_REGRESSION": "nondeterministic-clock"]

        let text = try await CLI.run(["check", "--determinism", session, "--no-build", "--junit", junit], environment: environment)
        #expect(text.status == 1)
        let first = text.stdout.split(separator: "\n").first.map(String.init)
        #expect(
            first == "✗ nondeterministic \(session) (40 actions): step 5 toggleCompleted(id: \"0BB980A5-75A8-4661-BEC0-8AA83B63F1EE\"), todos[id: 0BB980A5-75A8-4661-BEC0-8AA83B63F1EE].createdAt")
        #expect(text.stdout.contains("\n1 session: 1 nondeterministic\n"), "\(text.stdout)")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"<failure message="nondeterministic">"# + "\(session): nondeterministic at step 5 of 40 (toggleCompleted(id: &quot;0BB980A5-75A8-4661-BEC0-8AA83B63F1EE&quot;))"))

        let json = try await CLI.run(["check", "--determinism", session, "--no-build", "--json"], environment: environment)
        #expect(json.status == 1)
        let document = try self.json(json.stdout)
        #expect(document["summary"] as? [String: Int] == ["nondeterministic": 1])
        let result = try #require((document["sessions"] as? [[String: Any]])?.first)
        #expect(result["verdict"] as? String == "nondeterministic")
        #expect((result["nondeterministic"] as? [String: Any])?["step"] as? Int == 5)
    }

    @Test func determinismReplaysOneSessionNotTwo() async throws {
        let outcome = try await CLI.run(
            ["diff", "--determinism", CLI.session("todos-basic.jsonl"), CLI.session("todos-delta.jsonl"), "--no-build"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.hasPrefix("Error: --determinism replays one session; it does not go with two sessions or --states\n"))
    }
}
