import Foundation
import Testing

/// `diff --states` and `diff A B` match the elements of id-keyed arrays by id, as replay does.
@Suite struct IdentifiedDiffTests {
    @Test func swappingTwoMeetingsIsOneMoveInDiffStates() async throws {
        // Given two saved states whose meetings (with ids) swapped places
        let scratch = try Scratch()
        defer { scratch.remove() }
        let old = try scratch.write(
            "old.json", #"{"meetings": [{"id": "kickoff", "minutes": 30}, {"id": "review", "minutes": 45}], "title": "Design"}"#)
        let new = try scratch.write(
            "new.json", #"{"meetings": [{"id": "review", "minutes": 45}, {"id": "kickoff", "minutes": 30}], "title": "Design"}"#)

        // When they are compared
        let text = try await CLI.run(["diff", "--states", old, new])
        let json = try await CLI.run(["diff", "--states", old, new, "--json"])

        // Then the text and the data say one element moved
        #expect(text.status == 1, "\(text.stderr)")
        #expect(
            text.stdout == """
                1 difference: meetings[id: review]  moved from 1 to 0
                  {
                    "meetings": [
                      (moved from 1 to 0) {
                        "id": "review",
                        "minutes": 45
                      },
                      ... (1 unchanged)
                    ],
                    "title": "Design"
                  }

                """)
        let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let changes = document?["diff"] as? [[String: Any]]
        #expect(changes?.count == 1)
        #expect(changes?.first?["kind"] as? String == "moved")
        #expect(changes?.first?["from"] as? Int == 1)
        #expect(changes?.first?["to"] as? Int == 0)
        #expect(changes?.first?["path"] as? String == "meetings[id: review]")
    }
}
