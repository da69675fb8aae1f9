import Foundation
import Testing

/// `log --diff` reads the arrays its header notes as sets as sets: a member added or removed is one change, named by
/// its value, wherever the sorted members shift.
@Suite struct SetNotesRenderingTests {
    /// A session whose header notes a `Set<String>` of tags.
    static let session = CLI.packageRoot.appendingPathComponent("Tests/Sessions/tagged-inbox.jsonl").path
    static let headline = #"session tagged-inbox, store "inbox", Inbox 1.0, started 2026-11-23T10:00:00.000Z"#

    @Test func logDiffShowsSetMembersByValue() async throws {
        // When the session is logged with --diff
        let outcome = try await CLI.run(["log", Self.session, "--diff"])

        // Then each member added or removed reads by its value
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stdout == """
                \(Self.headline)
                     1     0.100s  app              1 change     tag("synced")
                       tags[member: "synced"]  (absent) -> "synced"
                     2     0.200s  app              1 change     untag("new")
                       tags[member: "new"]  "new" -> (absent)
                     3     0.300s  app              2 changes    archive
                       tags[member: "urgent"]  "urgent" -> (absent)
                       tags[member: "archived"]  (absent) -> "archived"
                     - end: finished after 0.400 s, 3 actions, 0 dropped

                """)
    }

    @Test func theSameSessionWithoutNotesComparesTheTagsByIndex() async throws {
        // Given the session as a recorder without type notes wrote it, in a file under /tmp
        let text = try String(contentsOfFile: Self.session, encoding: .utf8)
        let stripped = text.replacingOccurrences(of: #","typeNotes":{"sets":[["tags"]]}"#, with: "")
        #expect(stripped != text)
        let path = "/tmp/skr-sets-\(UUID().uuidString.prefix(8)).jsonl"
        try Data(stripped.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }

        // When it is logged with --diff
        let outcome = try await CLI.run(["log", path, "--diff"])

        // Then the tags are an array, compared by index
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stdout == """
                \(Self.headline)
                     1     0.100s  app              1 change     tag("synced")
                       tags[1]  (absent) -> "synced"
                     2     0.200s  app              1 change     untag("new")
                       tags[0]  "new" -> (absent)
                     3     0.300s  app              2 changes    archive
                       tags[0]  "synced" -> "archived"
                       tags[1]  "urgent" -> "synced"
                     - end: finished after 0.400 s, 3 actions, 0 dropped

                """)
    }
}
