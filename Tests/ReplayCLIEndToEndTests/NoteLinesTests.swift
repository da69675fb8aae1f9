import Foundation
import Testing

/// A format 3 session's notes through the commands that show a timeline: `verify`, `log` (text, `--follow`,
/// filters) and `report`, each note shown as data between the actions, never as markup or a terminal escape.
@Suite struct NoteLinesTests {
    static let session = CLI.packageRoot.appendingPathComponent("Tests/Sessions/board-notes.jsonl").path

    @Test func theHandWrittenSessionIsValid() async throws {
        let outcome = try await CLI.run(["verify", Self.session])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
    }

    static let logText = #"""
        session board-notes, store "board", ScoreApp 1.1, started 2026-11-27T10:00:00.000Z
                   0.050s  note                          screen: scoreboard
             1     0.100s  app              1 change     scored(2)
                   0.110s  note                          POST /score failed requestId=r-17 status=500
                   0.115s  note                          \u001b[31mred\u001b[0m <i>not markup</i> body=</script><b>bold</b> screen="Score board"
             2     0.120s  effect of 1      1 change     posted(receipt: 1002)
             - end: finished after 0.300 s, 2 actions, 0 dropped

        """#

    @Test func logShowsTheNotesBetweenTheActions() async throws {
        let outcome = try await CLI.run(["log", Self.session])
        #expect(outcome.status == 0)
        #expect(outcome.stdout == Self.logText)
    }

    @Test func logFollowShowsTheSameLines() async throws {
        let outcome = try await CLI.run(["log", "--follow", Self.session], timeout: 60)
        #expect(outcome.status == 0)
        #expect(outcome.stdout == Self.logText)
    }

    @Test func aNoteFollowsTheActionBeforeItThroughTheFilters() async throws {
        // Given a filter that lists step 2 and not step 1
        let outcome = try await CLI.run(["log", "--from", "2", Self.session])

        // Then the notes after step 1 are not listed
        #expect(
            outcome.stdout == """
                session board-notes, store "board", ScoreApp 1.1, started 2026-11-27T10:00:00.000Z
                     2     0.120s  effect of 1      1 change     posted(receipt: 1002)
                     - end: finished after 0.300 s, 2 actions, 0 dropped

                """)
    }

    @Test func logJSONHasTheNoteLines() async throws {
        let outcome = try await CLI.run(["log", "--follow", "--json", Self.session], timeout: 60)
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains(#"{"fields":{"requestId":"r-17","status":"500"},"kind":"note","message":"POST /score failed","time":0.11}"#))
    }

    @Test func theReportShowsTheNotesBetweenTheStepsAsEscapedData() async throws {
        // Given a folder with no replay host
        let scratch = try Scratch()
        defer { scratch.remove() }

        // When report writes the page of the session
        let outcome = try await CLI.run(["report", Self.session, "-o", "page.html"], directory: scratch.url)

        // Then the page's data holds each note after the step before it, as its one-line text
        #expect(outcome.status == 0)
        let html = try String(contentsOfFile: scratch.file("page.html"), encoding: .utf8)
        let start = try #require(html.range(of: #"<script type="application/json" id="report-data">"#)).upperBound
        let end = try #require(html.range(of: "</script>", range: start..<html.endIndex)).lowerBound
        let data = try #require(try JSONSerialization.jsonObject(with: Data(html[start..<end].utf8)) as? [String: Any])
        let notes = (data["effectLines"] as? [[String: Any]] ?? []).filter { $0["k"] as? String == "note" }
        #expect(notes.map { $0["after"] as? Int } == [0, 1, 1])
        #expect(notes.allSatisfy { $0["c"] is NSNull })
        #expect(
            notes.map { $0["text"] as? String } == [
                "screen: scoreboard", "POST /score failed requestId=r-17 status=500",
                #"\u001b[31mred\u001b[0m <i>not markup</i> body=</script><b>bold</b> screen="Score board""#,
            ])

        // And no text from the session became markup or an escape in the page
        #expect(!html.contains("<b>bold</b>"))
        #expect(!html.contains("<i>not markup</i>"))
        #expect(!html.contains("\u{1B}"))
    }
}
