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

    @Test func aBadFilterIsExitTwoNamingWhatItExpects() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let outcome = try await CLI.run(["sessions", "--dir", scratch.path, "--since", "yesterday"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("a duration such as 90s, 30m, 12h or 7d"), "\(outcome.stderr)")
    }
}
