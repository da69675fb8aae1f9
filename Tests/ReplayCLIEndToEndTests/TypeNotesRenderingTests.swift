import Foundation
import Testing

/// `log --diff`, `log --json`, `log --follow` and `history` read a session's values by the type notes in its header:
/// dates as ISO 8601, durations in seconds, dictionaries by key, elements by the member that holds their id.
@Suite struct TypeNotesRenderingTests {
    /// A session whose header notes a Date, a Duration, a `[UUID: Int]` and tasks identified by `toDoID`.
    static let session = CLI.packageRoot.appendingPathComponent("Tests/Sessions/typed-planner.jsonl").path
    static let headline = #"session typed-planner, store "planner", Planner 1.0, started 2026-11-23T10:00:00.000Z"#

    /// `log --diff` of the session: each value read as its Swift type.
    static let readDiff = """
        \(Self.headline)
             1     0.100s  app              1 change     postpone
               deadline  2026-11-23T10:00:00.000Z -> 2026-11-23T11:30:00.000Z
             2     0.200s  app              1 change     restart
               elapsed  180 s -> 6 s
             3     0.300s  app              1 change     vote("3F2504E0-4F89-11D3-9A0C-0305E82C3301")
               votes[key: "3F2504E0-4F89-11D3-9A0C-0305E82C3301"]  1 -> 2
             4     0.400s  app              1 change     vote("A1B2C3D4-0000-4000-8000-000000000002")
               votes[key: "A1B2C3D4-0000-4000-8000-000000000002"]  (absent) -> 1
             5     0.500s  app              1 change     complete(1)
               tasks[id: 1]  {"title":"Milk","toDoID":1} -> (absent)
             - end: finished after 0.600 s, 5 actions, 0 dropped

        """

    /// The session's lines with the header's `typeNotes` taken out, as a recorder before them wrote it, in a new
    /// file under /tmp that the caller removes.
    private func writeWithoutNotes() throws -> String {
        let text = try String(contentsOfFile: Self.session, encoding: .utf8)
        let notes = try #require(text.range(of: #","typeNotes":{"#))
        let end = try #require(text[notes.upperBound...].range(of: "}}\n"))
        // The notes object ends at the first of the two braces; the second closes the header.
        let stripped = text.replacingCharacters(in: notes.lowerBound..<text.index(after: end.lowerBound), with: "")
        let path = "/tmp/skr-types-\(UUID().uuidString.prefix(8)).jsonl"
        try Data(stripped.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func logDiffShowsDatesDurationsKeysAndIdsAsDiffDoes() async throws {
        // When the session is logged with --diff
        let outcome = try await CLI.run(["log", Self.session, "--diff"])

        // Then each value reads as its Swift type
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout == Self.readDiff)
    }

    @Test func logFollowReadsTheNotesOfTheHeaderItFollows() async throws {
        // When the session is followed with --diff (it has ended, so following stops at its end line)
        let outcome = try await CLI.run(["log", "--follow", "--diff", Self.session])

        // Then it reads as log --diff does
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout == Self.readDiff)
    }

    @Test func theSameSessionWithoutNotesReadsAsBefore() async throws {
        // Given the session as a recorder without type notes wrote it
        let path = try writeWithoutNotes()
        defer { try? FileManager.default.removeItem(atPath: path) }

        // When it is logged with --diff
        let outcome = try await CLI.run(["log", path, "--diff"])

        // Then its values read as their JSON, and arrays are compared by index
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stdout == """
                \(Self.headline)
                     1     0.100s  app              1 change     postpone
                       deadline  1795428000.0 -> 1795433400.0
                     2     0.200s  app              2 changes    restart
                       elapsed[0]  9 -> 0
                       elapsed[1]  13979303336614035456 -> 6000000000000000000
                     3     0.300s  app              1 change     vote("3F2504E0-4F89-11D3-9A0C-0305E82C3301")
                       votes[1]  1 -> 2
                     4     0.400s  app              2 changes    vote("A1B2C3D4-0000-4000-8000-000000000002")
                       votes[2]  (absent) -> "A1B2C3D4-0000-4000-8000-000000000002"
                       votes[3]  (absent) -> 1
                     5     0.500s  app              1 change     complete(1)
                       tasks[0]  {"title":"Milk","toDoID":1} -> (absent)
                     - end: finished after 0.600 s, 5 actions, 0 dropped

                """)
    }

    @Test func historyShowsTheDeadlineAsISO8601() async throws {
        // When the history of the deadline and of the tasks is asked for
        let deadline = try await CLI.run(["history", Self.session, "deadline"])
        let tasks = try await CLI.run(["history", Self.session, "tasks"])

        // Then each change reads as its Swift type
        #expect(deadline.status == 0, "\(deadline.stderr)")
        #expect(
            deadline.stdout == """
                history of deadline in \(Self.session), store "planner"
                     1     0.100s  app              postpone
                       deadline  2026-11-23T10:00:00.000Z -> 2026-11-23T11:30:00.000Z
                1 of 5 recorded steps changed deadline

                """)
        #expect(tasks.status == 0, "\(tasks.stderr)")
        #expect(
            tasks.stdout == """
                history of tasks in \(Self.session), store "planner"
                     5     0.500s  app              complete(1)
                       tasks[id: 1]  {"title":"Milk","toDoID":1} -> (absent)
                1 of 5 recorded steps changed tasks

                """)
    }

    @Test func logJSONKeepsTheRawValueAndAddsTheReadableOneAsDiffDoes() async throws {
        // When the steps that changed the clock are logged as JSON with their changes
        let outcome = try await CLI.run(["log", Self.session, "--diff", "--json", "--to", "2"])

        // Then each change keeps its JSON and has its text beside it
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stdout == """
                [
                  {
                    "changes": 1,
                    "diff": [
                      {
                        "components": [
                          "deadline"
                        ],
                        "kind": "changed",
                        "new": 1795433400.0,
                        "newReadable": "2026-11-23T11:30:00.000Z",
                        "old": 1795428000.0,
                        "oldReadable": "2026-11-23T10:00:00.000Z",
                        "path": "deadline"
                      }
                    ],
                    "kind": "action",
                    "name": "postpone",
                    "origin": "app",
                    "step": 1,
                    "time": 0.1
                  },
                  {
                    "changes": 1,
                    "diff": [
                      {
                        "components": [
                          "elapsed"
                        ],
                        "kind": "changed",
                        "new": [
                          0,
                          6000000000000000000
                        ],
                        "newReadable": "6 s",
                        "old": [
                          9,
                          13979303336614035456
                        ],
                        "oldReadable": "180 s",
                        "path": "elapsed"
                      }
                    ],
                    "kind": "action",
                    "name": "restart",
                    "origin": "app",
                    "step": 2,
                    "time": 0.2
                  },
                  {
                    "actions": 5,
                    "dropped": 0,
                    "kind": "end",
                    "reason": "finished",
                    "time": 0.6
                  }
                ]

                """)
    }

    @Test func diffOfTwoSessionsReadsTheHeadersNotes() async throws {
        // Given the session and a copy whose first step postponed the deadline by another hour
        let text = try String(contentsOfFile: Self.session, encoding: .utf8)
        let changed = text.replacingOccurrences(
            of: #""seq":1,"state":{"deadline":1795433400.0"#, with: #""seq":1,"state":{"deadline":1795437000.0"#)
        #expect(changed != text)
        let other = "/tmp/skr-types-\(UUID().uuidString.prefix(8)).jsonl"
        try Data(changed.utf8).write(to: URL(fileURLWithPath: other))
        defer { try? FileManager.default.removeItem(atPath: other) }

        // When the two are compared
        let outcome = try await CLI.run(["diff", Self.session, other])

        // Then the deadline reads as dates, as in log
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(
            outcome.stdout == """
                \(Self.session) and \(other) differ (- \(Self.session), + \(other))

                step 1: state after postpone
                  {
                -   "deadline": 2026-11-23T11:30:00.000Z,
                +   "deadline": 2026-11-23T12:30:00.000Z,
                    "elapsed": 180 s,
                    ... (2 unchanged)
                  }
                1 difference: deadline  2026-11-23T11:30:00.000Z -> 2026-11-23T12:30:00.000Z

                """)
    }
}
