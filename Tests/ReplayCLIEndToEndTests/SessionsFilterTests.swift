import Foundation
import Testing

/// `replay-cli sessions` with its filters, answered from the folder's index.
@Suite struct SessionsFilterTests {
    private func listed(_ arguments: [String], in scratch: Scratch) async throws -> [String] {
        let outcome = try await CLI.run(["sessions", "--dir", scratch.path, "--json"] + arguments)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let rows = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [[String: Any]] ?? []
        return rows.map { URL(fileURLWithPath: $0["file"] as? String ?? "").lastPathComponent }
    }

    @Test func filtersByStoreAppActionStatusAndAge() async throws {
        // Given a counter, a todo list and a rehearsal session, the counter's written two hours ago
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try scratch.copy("counter-basic.jsonl", as: "counter.jsonl")
        _ = try scratch.copy("todos-basic.jsonl", as: "todos.jsonl")
        _ = try scratch.copy("rehearsals-week.jsonl", as: "rehearsals.jsonl")
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -7200)], ofItemAtPath: scratch.file("counter.jsonl"))

        // Then each filter keeps what it names, newest first
        #expect(try await listed([], in: scratch).sorted() == ["counter.jsonl", "rehearsals.jsonl", "todos.jsonl"])
        #expect(try await listed(["--store", "todos"], in: scratch) == ["todos.jsonl"])
        #expect(try await listed(["--action", "toggleCompleted"], in: scratch) == ["todos.jsonl"])
        #expect(try await listed(["--action", "path.element"], in: scratch) == ["rehearsals.jsonl"])
        #expect(try await listed(["--action", "path.elem"], in: scratch) == [])
        #expect(try await listed(["--since", "1h", "--app", "SampleApp"], in: scratch).sorted() == ["rehearsals.jsonl", "todos.jsonl"])
        #expect(try await listed(["--status", "gaps"], in: scratch) == [])
        #expect(try await listed(["--status", "finished", "--since", "3h"], in: scratch).count == 3)

        // And the index is kept beside the sessions
        #expect(FileManager.default.fileExists(atPath: scratch.file(".index.json")))
    }

    @Test func severalFoldersAndIndexFilesAreListedTogetherWithTheirPaths() async throws {
        // Given two session folders, and index lines of sessions kept elsewhere (as replayd --on-finish hands them over)
        let first = try Scratch()
        let second = try Scratch()
        let uploaded = try Scratch()
        defer { [first, second, uploaded].forEach { $0.remove() } }
        _ = try first.copy("counter-basic.jsonl", as: "counter.jsonl")
        _ = try second.copy("todos-basic.jsonl", as: "todos.jsonl")
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1_764_064_800)], ofItemAtPath: first.file("counter.jsonl"))
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1_764_151_200)], ofItemAtPath: second.file("todos.jsonl"))
        let line = #"{"actionNames":{"toggle":2},"actions":2,"appName":"FleetApp","appVersion":"3.1","bytes":900,"damage":"","#
            + #""file":"fleet.jsonl","lostInGaps":3,"modified":1000,"sessionId":"f","startedAt":"2026-11-20T08:00:00Z","status":"finished","storeId":"todos"}"#
        try uploaded.write("day.ndjson", line + "\n")

        // When sessions reads them all, filtered by store and not
        let all = try await CLI.run(["sessions", first.path, second.path, uploaded.file("day.ndjson"), "--json"])
        let todos = try await CLI.run(["sessions", "--store", "todos", first.path, second.path, uploaded.file("day.ndjson")])

        // Then every session is listed by its path, newest first, and the filters apply to all of them
        #expect(all.status == 0, "\(all.stderr)")
        let rows = try JSONSerialization.jsonObject(with: Data(all.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(rows.map { $0["file"] as? String } == [second.file("todos.jsonl"), first.file("counter.jsonl"), uploaded.file("fleet.jsonl")])
        #expect(rows.map { $0["app"] as? String }.last == "FleetApp 3.1")
        #expect(todos.status == 0, "\(todos.stderr)")
        #expect(todos.stdout == """
            modified              app            store  actions  lost  status    file
            2025-11-26T10:00:00Z  SampleApp 1.0  todos  40       0     finished  \(second.file("todos.jsonl"))
            1970-01-01T00:00:01Z  FleetApp 3.1   todos  2        3     finished  \(uploaded.file("fleet.jsonl"))

            """)

        // And a line that is not an index entry is exit 2, naming the file and line
        try uploaded.write("bad.ndjson", line + "\n" + #"{"file":"x.jsonl"}"# + "\n")
        let bad = try await CLI.run(["sessions", first.path, uploaded.file("bad.ndjson")])
        #expect(bad.status == 2)
        #expect(bad.stderr == "Error: \(uploaded.file("bad.ndjson")):2: not an index line (it needs file, bytes and modified)\n")
    }

    @Test func aSessionWhoseFinishRanOutOfTimeIsFoundByItsEndReason() async throws {
        // Given index lines of a finished session and of one whose finish ran out of time (its end says timedOut)
        let uploaded = try Scratch()
        defer { uploaded.remove() }
        let line = { (file: String, status: String) in
            #"{"actions":2,"appName":"FleetApp","bytes":900,"damage":"","file":""# + file
                + #"","lostInGaps":0,"modified":1000,"sessionId":"f","status":""# + status + #"","storeId":"todos"}"#
        }
        try uploaded.write("day.ndjson", line("done.jsonl", "finished") + "\n" + line("late.jsonl", "timedOut") + "\n")

        // When sessions keeps those that timed out
        let outcome = try await CLI.run(["sessions", "--status", "timedOut", "--json", uploaded.file("day.ndjson")])

        // Then it lists that one only
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let rows = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(rows.map { $0["file"] as? String } == [uploaded.file("late.jsonl")])
    }

    @Test func aBadFilterIsExitTwoNamingWhatItExpects() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let outcome = try await CLI.run(["sessions", "--dir", scratch.path, "--since", "yesterday"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("a duration such as 90s, 30m, 12h or 7d"), "\(outcome.stderr)")
    }
}
