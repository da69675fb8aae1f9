import Foundation
import Testing

/// A store whose actions are separate structs (the samples' grocery list, a `RegisteredAction`), recorded by the
/// sample app to a file, then logged and replayed by `replay-cli` through the samples' host.
@Suite struct StructActionEndToEndTests {
    /// The diff's last line names the host's build, which changes from build to build.
    private func withoutHostLine(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("replayed through ") }.joined(separator: "\n")
    }

    @Test func aRecordedStructActionSessionIsLoggedByTypeNameAndReplaysThroughTheHost() async throws {
        // Given a session the sample app records of the grocery list
        let scratch = try Scratch()
        defer { scratch.remove() }
        let session = scratch.file("groceries.jsonl")
        let recorded = try await CLI.run(
            ["--feature", "groceries", "--actions", "40", "--out", session], executable: "sample-app")
        #expect(recorded.status == 0, "\(recorded.stderr)")

        // When it is logged by the name of an action type
        let log = try await CLI.run(["log", session, "--name", "DidFetchItems"])

        // Then it lists the effect's answers, each as its type and fields
        #expect(log.status == 0, "\(log.stderr)")
        let lines = log.stdout.split(separator: "\n").dropFirst().dropLast()
        #expect(lines.map { $0.split(separator: " ").first.map(String.init) } == ["2", "15", "28", "41"])
        #expect(lines.allSatisfy { $0.contains("  DidFetchItems(names: [") }, "\(log.stdout)")

        // And it replays through the samples' host as a match, and diverges with a broken reducer
        let diff = try await CLI.run(["diff", session, "--no-build"])
        #expect(diff.status == 0, "\(diff.stdout)\(diff.stderr)")
        #expect(diff.stdout.contains("match: all 44 replayed states equal the recorded ones"), "\(diff.stdout)")
        let broken = try await CLI.run(
            ["diff", session, "--no-build"], environment: ["SAMPLE_HOST_REGRESSION": "grocery-toggle"])
        #expect(broken.status == 1, "\(broken.stdout)\(broken.stderr)")
        #expect(broken.stdout.contains("diverged at step 10 of 44"), "\(broken.stdout)")
    }

    @Test func theGoldenSessionLogsEachStructByItsType() async throws {
        let outcome = try await CLI.run(["log", CLI.session("groceries-structs.jsonl"), "--to", "16"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stdout == """
                session 95afc7c5-19a0-427c-9a3a-976493d93a49, store "groceries", SampleApp 1.0, started 2026-11-26T08:50:53.079Z
                     1     0.003s  app              1 change     FetchItems()
                     2     0.024s  effect of 1      4 changes    DidFetchItems(names: ["Flour", "Sugar"])
                     3     0.024s  app              2 changes    AddItem(name: "Tea")
                     4     0.024s  app              2 changes    AddItem(name: "Apples")
                     5     0.025s  app              2 changes    AddItem(name: "Tea")
                     6     0.025s  app              2 changes    AddItem(name: "Bread")
                     7     0.025s  app              2 changes    AddItem(name: "Apples")
                     8     0.025s  app              2 changes    AddItem(name: "Apples")
                     9     0.025s  app              2 changes    AddItem(name: "Apples")
                    10     0.025s  app              1 change     ToggleBought(id: 6)
                    11     0.025s  app              2 changes    AddItem(name: "Rice")
                    12     0.025s  app              2 changes    AddItem(name: "Milk")
                    13     0.025s  app              1 change     ClearBought()
                    14     0.025s  app              1 change     FetchItems()
                    15     0.025s  effect of 14     4 changes    DidFetchItems(names: ["Flour", "Sugar"])
                    16     0.025s  app              1 change     ToggleBought(id: 4)
                     - end: finished after 0.036 s, 44 actions, 0 dropped

                """)
    }

    @Test func aBrokenStructReducerDivergesAtTheStepOfItsType() async throws {
        let outcome = try await CLI.run(
            ["diff", CLI.session("groceries-structs.jsonl"), "--no-build"],
            environment: ["SAMPLE_HOST_REGRESSION": "grocery-toggle"])
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(
            withoutHostLine(outcome.stdout) == """
                \(CLI.session("groceries-structs.jsonl")): store "groceries", 44 actions, recorded by SampleApp 1.0 (build 1) on 2026-11-26
                diverged at step 10 of 44
                  action  ToggleBought(id: 6)    (from the app, 0.025 s in)
                  before  8 AddItem(name: "Apples")
                  before  9 AddItem(name: "Apples")

                  state after step 10 (- recorded, + replayed)
                    {
                      "isLoading": false,
                      "items": [
                        ... (5 unchanged)
                        {
                          "id": 6,
                  -       "isBought": true,
                  +       "isBought": false,
                          "name": "Bread"
                        },
                        ... (3 unchanged)
                      ],
                      "nextID": 10
                    }
                  1 difference: items[id: 6].isBought  true -> false

                """)
    }
}
