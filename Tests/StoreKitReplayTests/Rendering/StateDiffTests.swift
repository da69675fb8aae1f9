import StoreKitCore
import StoreKitReplay
import Testing

@Suite struct StateDiffTests {
    private func todo(_ id: Int, _ title: String, done: Bool) -> JSONValue {
        .object(["id": .integer(Int64(id)), "title": .string(title), "isComplete": .bool(done)])
    }

    @Test func rendersAChangedLeafWithItsContext() {
        // Given two todo lists that differ in one flag
        let recorded: JSONValue = .object([
            "filter": .string("all"),
            "todos": .array([todo(1, "Bread", done: false), todo(2, "Eggs", done: true), todo(3, "Milk", done: true)]),
        ])
        var todos = recorded["todos"]!.arrayValue!
        todos[2] = todo(3, "Milk", done: false)
        let replayed: JSONValue = .object(["filter": .string("all"), "todos": .array(todos)])

        // When they are diffed
        let diff = StateDiff(from: recorded, to: replayed)

        // Then the dump folds the unchanged todos and marks the changed leaf
        #expect(
            diff.rendered() == """
                  {
                    "filter": "all",
                    "todos": [
                      ... (2 unchanged)
                      {
                        "id": 3,
                -       "isComplete": true,
                +       "isComplete": false,
                        "title": "Milk"
                      }
                    ]
                  }
                """)
        #expect(diff.summary == "1 difference: todos[2].isComplete  true -> false")
    }

    @Test func oneInsertionInTheMiddleIsOneChange() {
        let old: JSONValue = .array((0..<100).map { .integer($0) })
        var elements = old.arrayValue!
        elements.insert(.string("new"), at: 50)
        let diff = StateDiff(from: old, to: .array(elements))
        #expect(diff.changes == [StateDiff.Change(path: [.index(50)], kind: .added(.string("new")))])
    }

    @Test func reportsAddedRemovedAndRetypedMembers() {
        let old: JSONValue = .object(["a": .integer(1), "b": .array([]), "gone": .null])
        let new: JSONValue = .object(["a": .integer(1), "b": .object([:]), "new": .bool(true)])
        let diff = StateDiff(from: old, to: new)
        #expect(diff.changes.map(\.path.description) == ["b", "gone", "new"])
        #expect(
            diff.summary == """
                3 differences:
                  b  [] -> {}
                  gone  null -> (absent)
                  new  (absent) -> true
                """)
        #expect(
            diff.rendered() == """
                  {
                    "a": 1,
                -   "b": [],
                +   "b": {},
                -   "gone": null,
                +   "new": true
                  }
                """)
    }

    @Test func rendersChangedRemovedAndUnchangedElementsOfAnArray() {
        // Given an array whose second element changed inside and whose last element is gone
        let old: JSONValue = .array([.integer(1), .object(["a": .integer(1)]), .integer(3), .integer(4)])
        let new: JSONValue = .array([.integer(1), .object(["a": .integer(2)]), .integer(3)])

        // When they are diffed, then the dump shows the unchanged scalars as context around the two changes
        #expect(
            StateDiff(from: old, to: new).rendered() == """
                  [
                    1,
                    {
                -     "a": 1
                +     "a": 2
                    },
                    3,
                -   4
                  ]
                """)
    }

    @Test func equalValuesHaveNoDiff() {
        let value: JSONValue = .object(["x": .array([.integer(1)])])
        #expect(StateDiff(from: value, to: value).isEmpty)
        #expect(diff(value, value) == nil)
    }

    @Test func theDataFormNamesPathKindAndValues() {
        let diff = StateDiff(from: .object(["n": .integer(1)]), to: .object(["n": .integer(2)]))
        #expect(
            diff.jsonValue
                == .array([
                    .object([
                        "path": .string("n"), "components": .array([.string("n")]), "kind": .string("changed"),
                        "old": .integer(1), "new": .integer(2),
                    ])
                ]))
    }

    @Test func stringsThatDifferOnlyByNormalizationAreAChange() {
        // Given "é" precomposed and as "e" with a combining accent, equal as Swift Strings
        let recorded: JSONValue = .object(["name": .string("\u{E9}")])
        let replayed: JSONValue = .object(["name": .string("e\u{301}")])

        // Then the diff shows one change where the bytes differ
        let diff = StateDiff(from: recorded, to: replayed)
        #expect(diff.changes.map(\.path.description) == ["name"])
        #expect(diff.summary == "1 difference: name  \"\u{E9}\" -> \"e\u{301}\"")
    }

    @Test func keyedPairArraysAreDiffedAsMapsWhenTold() throws {
        // Given a map of struct keys to scores, written as sorted alternating keys and values, where one pair's
        // value changes, one pair goes and one comes
        let first: JSONValue = .object(["id": .integer(1)])
        let second: JSONValue = .object(["id": .integer(2)])
        let third: JSONValue = .object(["id": .integer(3)])
        let old: JSONValue = .object(["scores": .array([first, .integer(10), second, .integer(20)])])
        let new: JSONValue = .object(["scores": .array([first, .integer(11), third, .integer(30)])])
        let places = KeyedPairArrays([[.member("scores")]])

        // When they are diffed knowing where the pairs are
        let diff = StateDiff(from: old, to: new, keyedPairArrays: places)

        // Then each pair is compared by its key, and the dump shows pairs as `key: value`
        #expect(
            diff.summary == """
                3 differences:
                  scores[key: {"id":1}]  10 -> 11
                  scores[key: {"id":2}]  20 -> (absent)
                  scores[key: {"id":3}]  (absent) -> 30
                """)
        #expect(
            diff.rendered() == """
                  {
                    "scores": [
                -     {"id":1}: 10,
                +     {"id":1}: 11,
                -     {"id":2}: 20,
                +     {"id":3}: 30
                    ]
                  }
                """)
        // Without being told, the same arrays are arrays
        #expect(StateDiff(from: old, to: new).changes.map(\.path.description) == ["scores[1]", "scores[2].id", "scores[3]"])
    }
}
