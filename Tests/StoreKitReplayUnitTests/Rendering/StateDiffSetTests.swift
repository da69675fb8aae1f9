import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import Testing

/// A `Set` is written as its elements sorted; where the type notes say so, ``StateDiff`` compares two of them as sets,
/// each member added or removed named by its value.
@Suite struct StateDiffSetTests {
    private let notes = EncodedTypeNotes([.sets: [[.member("tags")]]])

    private func tags(_ members: String...) -> JSONValue {
        .object(["tags": .array(members.map(JSONValue.string))])
    }

    @Test func aMemberAddedToASetIsOneChangeNamedByItsValue() {
        // Given a set of tags into which "synced" sorts between the two it held
        let old = tags("new", "urgent")
        let new = tags("new", "synced", "urgent")

        // When they are diffed knowing where the set is
        let diff = StateDiff(from: old, to: new, typeNotes: notes)

        // Then the member added is the one change, by its value, and the dump shows the set's members
        #expect(diff.changes == [StateDiff.Change(path: [.key("tags"), .setMember(.string("synced"))], kind: .added(.string("synced")))])
        #expect(diff.summary == #"1 difference: tags[member: "synced"]  (absent) -> "synced""#)
        #expect(
            diff.rendered() == """
                  {
                    "tags": [
                      "new",
                +     "synced",
                      "urgent"
                    ]
                  }
                """)
    }

    @Test func membersRemovedAndAddedAreOneChangeEachWhereverTheSortedElementsShift() {
        // Given a set that loses its first member and gains one that sorts first, shifting every index
        let old = tags("new", "synced", "urgent")
        let new = tags("archived", "synced", "urgent")

        // When they are diffed knowing where the set is
        let diff = StateDiff(from: old, to: new, typeNotes: notes)

        // Then one member was removed and one added, each by its value
        #expect(
            diff.summary == """
                2 differences:
                  tags[member: "new"]  "new" -> (absent)
                  tags[member: "archived"]  (absent) -> "archived"
                """)
        #expect(
            diff.rendered() == """
                  {
                    "tags": [
                +     "archived",
                -     "new",
                      "synced",
                      "urgent"
                    ]
                  }
                """)
        #expect(diff.jsonValue.arrayValue?.first?["components"] == .array([.string("tags"), .object(["setMember": .string("new")])]))
    }

    @Test func withoutNotesTheSameArraysAreComparedByIndexAsBefore() {
        // Given the same sets, and no notes
        let diff = StateDiff(from: tags("new", "synced", "urgent"), to: tags("archived", "synced", "urgent"))

        // Then they are arrays
        #expect(diff.summary == #"1 difference: tags[0]  "new" -> "archived""#)
        #expect(StateDiff(from: tags("new", "urgent"), to: tags("new", "synced", "urgent")).changes.map(\.path.description) == ["tags[1]"])
    }

    @Test func aSetOfIdentifiedElementsIsMatchedByIDWithoutMoves() {
        // Given a set of objects with ids, sorted by their bytes, whose order changes as one's title does
        func card(_ id: Int64, _ title: String) -> JSONValue { .object(["id": .integer(id), "title": .string(title)]) }
        let old: JSONValue = .object(["tags": .array([card(1, "b"), card(2, "c")])])
        let new: JSONValue = .object(["tags": .array([card(2, "c"), card(1, "d")])])

        // When they are diffed knowing where the set is
        let diff = StateDiff(from: old, to: new, typeNotes: notes)

        // Then the changed element is compared by id, and its new place in the sorted order is no move
        #expect(diff.summary == #"1 difference: tags[id: 1].title  "b" -> "d""#)
    }

    @Test func anArrayWithEqualElementsAtASetPathIsComparedByIndex() {
        // Given arrays no set writes (two equal elements) where the notes say a set is
        let diff = StateDiff(from: tags("a", "a"), to: tags("a", "b"), typeNotes: notes)

        // Then they are compared by position
        #expect(diff.changes.map(\.path.description) == ["tags[1]"])
    }
}
