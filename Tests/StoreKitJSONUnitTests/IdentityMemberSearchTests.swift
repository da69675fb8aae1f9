import Foundation
import Testing

@testable import StoreKitJSON

/// A todo as ReSwift's example holds it: `Identifiable` through `toDoID`, which is how it encodes.
private struct ToDo: Identifiable, Codable, Hashable {
    var toDoID: String
    var title: String
    var completed = false
    var id: String { toDoID }
}

/// Who owns todos: a dictionary key `Codable` writes as keyed pairs.
private struct Owner: Codable, Hashable {
    var name: String
}

/// A collection that encodes itself through an unkeyed container, element by element, as TCA's
/// `IdentifiedArrayOf` does.
private struct IdentifiedStandIn<Element: Encodable & Identifiable>: Encodable {
    var elements: [Element]

    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(contentsOf: elements)
    }
}

/// A list holding its todos in the stand-in.
private struct List: Encodable {
    var name: String
    var items: IdentifiedStandIn<ToDo>
}

/// Todos in each kind of place an array can be: a member, a keyed pair's value, an array written by a type's own
/// `encode(to:)` inside an array, and a set's element, inside which nothing is noted.
private struct ToDoState: Encodable {
    var todos: [ToDo]
    var byOwner: [Owner: [ToDo]] = [:]
    var lists: [List] = []
    var archived: Set<[ToDo]> = []
}

/// An id computed from two members, which no member holds.
private struct Computed: Identifiable, Codable {
    var list: String
    var position: Int
    var id: String { "\(list)-\(position)" }
}

/// An id that two members hold as long as `copy` equals `key`.
private struct Twice: Identifiable, Codable {
    var key: String
    var copy: String
    var id: String { key }
}

/// An id that does not encode.
private struct Opaque: Identifiable, Encodable {
    struct Tag: Hashable { var name: String }
    var name: String
    var id: Tag { Tag(name: name) }
}

/// An id stored as `id`, which the diff matches by without a note.
private struct Plain: Identifiable, Codable {
    var id: Int
    var title: String
}

/// Todos beside arrays whose elements name no member to match them by.
private struct Mixed: Encodable {
    var todos: [ToDo]
    var computed: [Computed]
    var ambiguous: [Twice]
    var stored: [Plain]
    var unencodable: [Opaque]
}

@Suite struct IdentityMemberSearchTests {
    private let encoder = CanonicalJSONEncoder()

    private static func toDos(_ ids: [String]) -> [ToDo] {
        ids.map { ToDo(toDoID: $0, title: "title \($0)") }
    }

    /// The notes the reading byte writer takes of `value`, the tree encoder's notes of it, and whether its bytes
    /// are the ones encoded without notes.
    private func notes<T: Encodable>(of value: T) throws -> (writer: EncodedTypeNotes, tree: EncodedTypeNotes, sameBytes: Bool) {
        var writer = EncodedTypeNotes()
        let bytes = try encoder.encodeToBytes(Wrapped(value: value), typeNotes: &writer)
        var tree = EncodedTypeNotes()
        let treeBytes = try encoder.encodeToBytes(TreeOnly(value: value), typeNotes: &tree)
        return (writer, tree, bytes == (try encoder.encodeToBytes(Wrapped(value: value))) && bytes == treeBytes)
    }

    @Test func theTodosOfEveryKindOfArrayAreNotedAsIdentifiedByToDoID() throws {
        // Given todos in a member, a keyed pair's value, a stand-in for IdentifiedArray inside an array, and a set
        let state = ToDoState(
            todos: Self.toDos(["t1", "t2"]), byOwner: [Owner(name: "ann"): Self.toDos(["t3"])],
            lists: [List(name: "home", items: IdentifiedStandIn(elements: Self.toDos(["t4", "t5"])))],
            archived: [Self.toDos(["t6"])])

        // When both encoders encode it for reading
        let noted = try notes(of: state)

        // Then each array but the set's is identified by toDoID, the same for both, and the bytes are unchanged
        let expected: [[EncodedTypeNotes.Step]: String] = [
            [.member("value"), .member("todos")]: "toDoID",
            [.member("value"), .member("byOwner"), .pairValue]: "toDoID",
            [.member("value"), .member("lists"), .element, .member("items")]: "toDoID",
        ]
        #expect(noted.writer.identityKeys == expected)
        #expect(noted.tree.identityKeys == expected)
        #expect(noted.sameBytes)
    }

    @Test func aWrongInsertIsOneMoveWithoutAnyKeyGiven() throws {
        // Given todos, and the same with the third inserted first
        var notes = EncodedTypeNotes()
        let old = try JSONValue(parsing: encoder.encodeToBytes(ToDoState(todos: Self.toDos(["t1", "t2", "t3"])), typeNotes: &notes))
        let new = try JSONValue(parsing: encoder.encodeToBytes(ToDoState(todos: Self.toDos(["t3", "t1", "t2"])), typeNotes: &notes))

        // When they are diffed with the notes the encoder took
        let diff = StateDiff(from: old, to: new, typeNotes: notes)

        // Then the third todo moved, and nothing else changed
        #expect(diff.summary == "1 difference: todos[id: t3]  moved from 2 to 0")
    }

    @Test func theRecordersWriterLooksIntoNothing() throws {
        // Given a writer kept from state to state as the app's recorder keeps it, and one as the replay host does
        let recording = EncodingMemo(reuse: .everyPart)
        let reading = EncodingMemo(reuse: .never, notesForReading: true)

        // When both encode the same todos
        let state = ToDoState(todos: Self.toDos(["t1", "t2"]))
        let recorded = try encoder.encodeToBytes(state, reusing: recording)
        let read = try encoder.encodeToBytes(state, reusing: reading)

        // Then only the reading one notes the identity member, and the bytes are the same
        #expect(recording.typeNotes.identityKeys.isEmpty)
        #expect(reading.typeNotes.identityKeys == [[.member("todos")]: "toDoID"])
        #expect(recorded == read)
    }

    @Test func noMemberIsGuessedForAComputedAnAmbiguousAStoredOrAnUnencodableID() throws {
        // Given, beside todos, arrays whose id no member holds, two members hold in every element, `id` holds, or
        // does not encode
        let state = Mixed(
            todos: Self.toDos(["t1"]), computed: [Computed(list: "a", position: 1), Computed(list: "a", position: 2)],
            ambiguous: (0..<IdentityMemberSearch.elementLimit + 1).map { Twice(key: "k\($0)", copy: "k\($0)") },
            stored: [Plain(id: 1, title: "1"), Plain(id: 2, title: "2")], unencodable: [Opaque(name: "a")])

        // When both encoders encode it for reading
        let noted = try notes(of: state)

        // Then only the todos are noted, and the bytes are unchanged
        #expect(noted.writer.identityKeys == [[.member("value"), .member("todos")]: "toDoID"])
        #expect(noted.tree.identityKeys == noted.writer.identityKeys)
        #expect(noted.sameBytes)
    }

    @Test func twoMembersThatHoldTheIdAreToldApartByALaterElement() throws {
        // Given an array whose first element holds its id in two members and whose second in one
        let elements = [Twice(key: "a", copy: "a"), Twice(key: "b", copy: "other")]

        // When it is encoded whole, and element by element by a writer kept from value to value
        let whole = try notes(of: elements)
        let memo = EncodingMemo(reuse: .never, notesForReading: true)
        _ = try encoder.encodeToBytes([elements[0]], reusing: memo)
        let afterFirst = memo.typeNotes.identityKeys
        _ = try encoder.encodeToBytes([elements[1]], reusing: memo)

        // Then the member is the one both elements hold it in
        #expect(whole.writer.identityKeys == [[.member("value")]: "key"])
        #expect(whole.tree.identityKeys == [[.member("value")]: "key"])
        #expect(afterFirst.isEmpty)
        #expect(memo.typeNotes.identityKeys == [[]: "key"])
    }
}
