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
}
