import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import Testing

/// Arrays whose elements are identified by another member than `id` (ReSwift's `toDoID`), named per path by an
/// ``IdentityKey``, are diffed by that member; without it, or where it does not identify them, by position.
@Suite struct StateDiffIdentityTests {
    private static func toDo(_ id: String, _ title: String) -> JSONValue {
        .object(["toDoID": .string(id), "title": .string(title), "completed": .bool(false)])
    }

    /// Three todos, and the same with the third inserted first, as a wrong insert leaves them.
    private static let recorded: JSONValue = .object(["todos": .array([toDo("t1", "Milk"), toDo("t2", "Eggs"), toDo("t3", "Tea")])])
    private static let replayed: JSONValue = .object(["todos": .array([toDo("t3", "Tea"), toDo("t1", "Milk"), toDo("t2", "Eggs")])])

    private static func keys(_ mapping: JSONValue) throws -> [IdentityKey] {
        try [IdentityKey](jsonValue: mapping)
    }

    @Test func aWrongInsertIsOneMoveWhenTheArrayIsIdentifiedByToDoID() throws {
        // Given the identity key of the todos
        let keys = try Self.keys(.object(["todos": .string("toDoID")]))

        // When the states are diffed with it
        let notes = keys.noting([Self.recorded, Self.replayed], in: EncodedTypeNotes())
        let diff = StateDiff(from: Self.recorded, to: Self.replayed, typeNotes: notes)

        // Then the third todo moved, and nothing else changed
        #expect(notes.identityKeys == [[.member("todos")]: "toDoID"])
        #expect(diff.summary == "1 difference: todos[id: t3]  moved from 2 to 0")
        #expect(
            diff.rendered() == """
                  {
                    "todos": [
                      (moved from 2 to 0) {
                        "completed": false,
                        "title": "Tea",
                        "toDoID": "t3"
                      },
                      ... (2 unchanged)
                    ]
                  }
                """)
    }

    @Test func withoutTheKeyTheSameInsertIsSixFieldChanges() {
        let diff = StateDiff(from: Self.recorded, to: Self.replayed)
        #expect(diff.changes.count == 6)
        #expect(diff.changes.map(\.path.description).first == "todos[0].title")
    }

    @Test func aKeyThatSomeElementLacksLeavesThePositionalComparison() throws {
        // Given todos one of which has no toDoID, and a key naming toDoID
        let old: JSONValue = .object(["todos": .array([Self.toDo("t1", "Milk"), .object(["title": .string("Eggs")])])])
        let new: JSONValue = .object(["todos": .array([.object(["title": .string("Eggs")]), Self.toDo("t1", "Milk")])])
        let notes = try Self.keys(.object(["todos": .string("toDoID")])).noting([old, new], in: EncodedTypeNotes())

        // Then they are compared by position: nothing is guessed
        let diff = StateDiff(from: old, to: new, typeNotes: notes)
        #expect(diff.changes.allSatisfy { !$0.path.description.contains("[id:") })
        #expect(!diff.isEmpty)
    }

    @Test func aPatternWithWildcardsNamesEveryNestedArray() throws {
        // Given lists of items, each identified by `sku`
        func list(_ skus: [String]) -> JSONValue {
            .object(["items": .array(skus.map { .object(["sku": .string($0)]) })])
        }
        let old: JSONValue = .object(["lists": .array([list(["a", "b"]), list(["c"])])])
        let new: JSONValue = .object(["lists": .array([list(["b", "a"]), list(["c"])])])
        let notes = try Self.keys(.object(["lists[*].items": .string("sku")])).noting([old, new], in: EncodedTypeNotes())

        // Then the items of every list are matched by sku
        #expect(notes.identityKeys == [[.member("lists"), .element, .member("items")]: "sku"])
        #expect(StateDiff(from: old, to: new, typeNotes: notes).summary == "1 difference: lists[0].items[id: b]  moved from 1 to 0")
    }

    @Test func twoKeysForTheSameArraysAreNeitherUsed() throws {
        let keys = try Self.keys(.object(["todos": .string("toDoID"), "*": .string("title")]))
        #expect(keys.noting([Self.recorded], in: EncodedTypeNotes()).identityKeys.isEmpty)
    }

    @Test func aPatternNamingNoArrayIsFoundAndWarnedAbout() throws {
        let keys = try Self.keys(.object(["todos": .string("toDoID"), "todoz": .string("toDoID"), "todos[0]": .string("x")]))
        #expect(keys.namingNoArray(in: [Self.recorded, Self.replayed]).map(\.description) == ["todos[0]=x", "todoz=toDoID"])
        #expect(
            keys.warnings(about: [Self.recorded], source: ".replay.json").first
                == "warning: .replay.json: identity 'todos[0]' names no array in the states compared; no element was matched by 'x' there")
        #expect(keys.warnings(about: [], source: ".replay.json").isEmpty)
    }

    @Test(arguments: [
        (JSONValue.array([]), "must be an object from path patterns to member names, such as {\"todos\": \"toDoID\"}"),
        (.object(["todos": .integer(1)]), "'todos' must name a member as a non-empty string, such as \"toDoID\""),
        (.object(["to*dos": .string("x")]), "bad path pattern 'to*dos' at character 1: '*' stands for a whole member name, not part of one"),
    ])
    func aMalformedIdentityIsANamedError(_ json: JSONValue, _ message: String) {
        #expect(throws: IdentityKey.FormError(message)) { try [IdentityKey](jsonValue: json) }
    }

    @Test func theKeysTravelWithTheDiffsTypeNotes() throws {
        let notes = EncodedTypeNotes([.dates: [[.member("at")]]], identityKeys: [[.member("todos")]: "toDoID"])
        #expect(notes.jsonMembers["identityKeys"] == .array([.array([.array([.string("todos")]), .string("toDoID")])]))
        #expect(try EncodedTypeNotes(jsonMembers: notes.jsonMembers) == notes)
        let error = #expect(throws: EncodedTypeNotes.FormError.self) {
            try EncodedTypeNotes(jsonMembers: ["identityKeys": .array([.string("todos")])])
        }
        #expect(error?.member == "identityKeys")
    }
}
