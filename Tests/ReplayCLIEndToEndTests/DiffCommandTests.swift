import Foundation
import Testing

@Suite struct DiffCommandTests {
    @Test func aSampleSessionReplaysThroughTheSamplesHostAsAMatch() async throws {
        let outcome = try await CLI.run(["diff", CLI.session("todos-basic.jsonl"), "--no-build"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("match: all 40 replayed states equal the recorded ones"))
    }

    @Test func aChangedReducerExitsOneAndNamesStepActionAndPath() async throws {
        // Given the samples' host with a todo reducer that no longer toggles
        let outcome = try await CLI.run(["diff", CLI.session("todos-basic.jsonl"), "--no-build"], environment: ["SAMPLE_HOST_REGRESSION": "todos-toggle"])

        // Then diff exits 1 and names the step, the action and the path
        #expect(outcome.status == 1)
        #expect(outcome.stdout.contains("diverged at step 5 of 40"))
        #expect(outcome.stdout.contains("action  toggleCompleted"))
        #expect(outcome.stdout.contains("-       \"isComplete\": true,"))
        #expect(outcome.stdout.contains("+       \"isComplete\": false,"))
        #expect(outcome.stdout.contains("1 difference: todos[id: 0BB980A5-75A8-4661-BEC0-8AA83B63F1EE].isComplete  true -> false"))
        #expect(outcome.stdout.contains("before  4 clearCompleted"))
    }

    @Test func jsonOutputIsOneDocumentWithTheVerdict() async throws {
        let outcome = try await CLI.run(
            ["diff", CLI.session("todos-basic.jsonl"), "--json", "--all", "--no-build"], environment: ["SAMPLE_HOST_REGRESSION": "todos-toggle"])
        #expect(outcome.status == 1)
        let document = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        let report = document?["report"] as? [String: Any]
        #expect(report?["verdict"] as? String == "diverged")
        let divergences = report?["divergences"] as? [[String: Any]]
        #expect((divergences?.count ?? 0) > 1)
        #expect(divergences?.first?["step"] as? Int == 5)
    }

    @Test func readsTheSessionFromStandardInput() async throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: CLI.session("counter-basic.jsonl")))
        let outcome = try await CLI.run(["diff", "-", "--no-build"], stdin: data)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.hasPrefix("<stdin>: store \"counter\""))
    }

    @Test func twoSessionsAreComparedStepByStepWithoutReducers() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let same = try await CLI.run(["diff", CLI.session("counter-basic.jsonl"), CLI.session("counter-basic.jsonl")])
        #expect(same.status == 0)
        #expect(same.stdout.contains("the same 40 steps"))
        // A copy whose step 3 state was edited
        var lines = try String(contentsOfFile: CLI.session("counter-basic.jsonl"), encoding: .utf8).split(separator: "\n").map(String.init)
        lines[3] = lines[3].replacingOccurrences(of: #""step":"#, with: #""step":9,"old":"#)
        let edited = try scratch.write("edited.jsonl", lines.joined(separator: "\n") + "\n")
        let different = try await CLI.run(["diff", CLI.session("counter-basic.jsonl"), edited])
        #expect(different.status == 1)
        #expect(different.stdout.contains("step 3: state after"))
    }

    @Test func twoStateFilesAreComparedStructurally() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let old = try scratch.write("old.json", #"{"todos": [{"title": "Milk", "done": false}], "filter": "all"}"#)
        let reordered = try scratch.write("same.json", "{\n  \"filter\": \"all\",\n  \"todos\": [{\"done\": false, \"title\": \"Milk\"}]\n}\n")
        let new = try scratch.write("new.json", #"{"todos": [{"title": "Milk", "done": true}], "filter": "all"}"#)

        let same = try await CLI.run(["diff", "--states", old, reordered])
        #expect(same.status == 0, "\(same.stderr)")
        #expect(same.stdout.contains("hold equal JSON"))

        let different = try await CLI.run(["diff", "--states", old, new])
        #expect(different.status == 1)
        #expect(different.stdout.contains("1 difference: todos[0].done  false -> true"))
        #expect(different.stdout.contains("+       \"done\": true,"))

        let json = try await CLI.run(["diff", "--states", old, new, "--json"])
        #expect(json.status == 1)
        let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(document?["same"] as? Bool == false)
    }

    @Test func aMalformedStateFileIsTroubleWithFileLineAndColumn() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let good = try scratch.write("good.json", "{}")
        let bad = try scratch.write("bad.json", "{\n  \"a\": 1,\n  \"b\": tru\n}")
        let outcome = try await CLI.run(["diff", "--states", good, bad])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("\(bad):3:8: invalid literal, expected 'true'"))
        let missing = try await CLI.run(["diff", "--states", scratch.file("absent.json"), good])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("cannot read \(scratch.file("absent.json"))"))
    }

    @Test func aMalformedSessionIsTroubleWithFileAndLine() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let text = try String(contentsOfFile: CLI.session("counter-basic.jsonl"), encoding: .utf8)
        let broken = try scratch.write("broken.jsonl", text.split(separator: "\n").prefix(3).joined(separator: "\n") + "\n{\"kind\":\"acton\"}\n")
        let outcome = try await CLI.run(["diff", broken, "--no-build"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("broken.jsonl:4: field 'kind' is 'acton'"), "\(outcome.stderr)")
        let truncated = try scratch.write("cut.jsonl", text.split(separator: "\n").prefix(3).joined(separator: "\n") + "\n{\"kind\":\"action\",\"seq\":3")
        let cut = try await CLI.run(["diff", truncated, "--no-build"])
        #expect(cut.status == 2)
        #expect(cut.stderr.contains("cut.jsonl:4: the last line is cut off"), "\(cut.stderr)")
    }
}
