import Foundation
import Testing

/// `export --format redux-devtools`: what it says, the file it writes (read back as JSON, its states those `show`
/// reads), and the command lines it refuses.
@Suite struct ExportCommandTests {
    private func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func writesTheLiftedStateWithTheStatesShowReadsFromAPatchedSession() async throws {
        // Given a scratch folder and a session whose states are mostly patches
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = scratch.file("out/todos.json")
        let session = CLI.session("todos-delta.jsonl")

        // When it is exported
        let outcome = try await CLI.run(["export", session, "--format", "redux-devtools", "-o", file])

        // Then it says what it wrote, and the file is the lifted state
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr == "")
        #expect(
            outcome.stdout == "wrote \(file): \(session) as Redux DevTools' lifted state, @@INIT and 40 actions, \(bytes.count) bytes\n")
        let lifted = try #require(try JSONSerialization.jsonObject(with: bytes) as? [String: Any])
        #expect(lifted["currentStateIndex"] as? Int == 40)
        #expect(lifted["nextActionId"] as? Int == 41)
        #expect((lifted["stagedActionIds"] as? [Int]) == Array(0...40))
        #expect((lifted["skippedActionIds"] as? [Int]) == [])
        let actions = try #require(lifted["actionsById"] as? [String: [String: Any]])
        #expect(actions.count == 41)
        #expect((actions["0"]?["action"] as? [String: Any])?["type"] as? String == "@@INIT")
        #expect(actions["1"]?["type"] as? String == "PERFORM_ACTION")
        // And each computed state is the state `show --json` reads at that step
        let computed = try #require(lifted["computedStates"] as? [[String: Any]])
        #expect(computed.count == 41)
        for step in [0, 1, 17, 40] {
            let shown = try await CLI.run(["show", session, "--step", "\(step)", "--json"])
            let state = try #require(try object(shown.stdout)["state"])
            #expect(
                NSDictionary(dictionary: ["s": state]).isEqual(to: ["s": try #require(computed[step]["state"])]),
                "computedStates[\(step)] is not the state show reads")
        }
    }

    @Test func saysWhatItWroteAsJSON() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = scratch.file("counter.json")
        let outcome = try await CLI.run(["export", CLI.session("counter-basic.jsonl"), "--format", "redux-devtools", "-o", file, "--json"])
        let size = try Data(contentsOf: URL(fileURLWithPath: file)).count
        #expect(outcome.status == 0)
        #expect(
            outcome.stdout == """
                {
                  "actions": 40,
                  "bytes": \(size),
                  "entries": 41,
                  "file": "\(file)",
                  "format": "redux-devtools",
                  "gaps": 0,
                  "session": "\(CLI.session("counter-basic.jsonl"))"
                }

                """)
    }

    @Test(arguments: [
        (["--format", "redux-devtools"], "Error: missing -o <file>, the file to write"),
        (["-o", "/tmp/skr-never.json"], "Error: missing --format (one of: redux-devtools)"),
        (["--format", "har", "-o", "/tmp/skr-never.json"], "Error: option '--format' needs one of redux-devtools, not 'har'"),
    ])
    func refusesAnIncompleteCommandLine(_ options: [String], error: String) async throws {
        let outcome = try await CLI.run(["export", CLI.session("counter-basic.jsonl")] + options)
        #expect(outcome.status == 2)
        #expect(outcome.stdout == "")
        #expect(outcome.stderr == error + "\nUsage: replay-cli export <session> --format <format> -o <file> [--json]\n")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/skr-never.json"))
    }
}
