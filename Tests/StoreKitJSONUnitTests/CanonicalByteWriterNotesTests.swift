import Foundation
import SampleSupport
import Testing

@testable import StoreKitJSON

/// Who a todo belongs to: a dictionary key `Codable` writes as keyed pairs.
private struct Owner: Codable, Hashable {
    var name: String
    var team: Int
}

/// A date written through a single-value container, as a wrapper type does.
private struct Stamp: Codable, Hashable {
    var date: Date
    init(_ date: Date) { self.date = date }
    init(from decoder: any Decoder) throws { date = try decoder.singleValueContainer().decode(Date.self) }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(date)
    }
}

/// What happened to a todo: an enum whose cases hold dates and durations in nested containers.
private enum Event: Codable, Hashable {
    case created
    case scheduled(at: Date, every: Duration?)
    case snoozed(Duration)
}

/// A todo with dates, optional dates (absent ones break its key order), durations, a set and nested todos.
private struct Todo: Codable, Hashable {
    var id: Int
    var title: String
    var created: Date
    var due: Date?
    var done = false
    var reminders: [Duration] = []
    var tags: Set<String> = []
    var stamps: [Stamp] = []
    var events: [Event] = []
    var subtasks: [Todo] = []
}

/// Writes its members in an order, and with dates at keys, that depend on its depth, so objects of one
/// `CodingKey` type replace each other's key order while the outer one is still being written.
private struct Shifting: Encodable, Hashable {
    var depth: Int
    var at: Date
    var inner: [Shifting]
    private enum Keys: String, CodingKey { case depth, at, inner, when, lasting }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        if depth % 2 == 0 {
            try container.encode(inner, forKey: .inner)
            try container.encode(at, forKey: .at)
            try container.encode(depth, forKey: .depth)
        } else {
            try container.encode(depth, forKey: .depth)
            try container.encode(at, forKey: .when)
            try container.encode(Duration.seconds(depth), forKey: .lasting)
            try container.encode(inner, forKey: .inner)
        }
    }
}

/// A todos store with dates and durations in every kind of place the writer notes, and places it does not (a
/// set's elements, a keyed pair's key).
private struct TodosState: Encodable, Hashable {
    var todos: [Todo] = []
    var byOwner: [Owner: [Todo]] = [:]
    var timers: [String: Duration] = [:]
    var lastSaved: Date?
    var history: [[Date]] = []
    var byDay: [Date: Int] = [:]
    var archived: Set<Todo> = []
    var grid: [Owner: [Owner: Duration]] = [:]
    var shifting: [Shifting] = []
}

/// Random todos states, each a few changes from the one before, as a session's states are.
private struct StateMaker {
    var random: SeededRandom

    mutating func number(below bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
    mutating func chance() -> Bool { random.next() % 2 == 0 }
    mutating func date() -> Date { Date(timeIntervalSince1970: Double(number(below: 100_000)) / 4) }

    mutating func todo(id: Int, depth: Int = 0) -> Todo {
        var todo = Todo(id: id, title: "todo \(id)", created: date())
        if chance() { todo.due = date() }
        todo.done = chance()
        todo.reminders = (0..<number(below: 3)).map { .milliseconds($0 * 250) }
        todo.tags = Set((0..<number(below: 3)).map { "tag\($0)" })
        todo.stamps = (0..<number(below: 2)).map { _ in Stamp(date()) }
        todo.events = (0..<number(below: 3)).map { index in
            switch index % 3 {
            case 0: .created
            case 1: .scheduled(at: date(), every: chance() ? .seconds(60) : nil)
            default: .snoozed(.seconds(number(below: 600)))
            }
        }
        if depth < 2, chance() {
            todo.subtasks = (0..<number(below: 3)).map { self.todo(id: id * 10 + $0, depth: depth + 1) }
        }
        return todo
    }

    mutating func shifting(depth: Int) -> Shifting {
        let inner = depth >= 3 ? [] : (0..<number(below: 3)).map { _ in shifting(depth: depth + 1) }
        return Shifting(depth: depth, at: date(), inner: inner)
    }

    /// `state` after one random change.
    mutating func changed(_ state: TodosState) -> TodosState {
        var state = state
        switch number(below: 10) {
        case 0: state.todos.append(todo(id: state.todos.count))
        case 1: if !state.todos.isEmpty { state.todos[number(below: state.todos.count)].done.toggle() }
        case 2: if !state.todos.isEmpty { state.todos[number(below: state.todos.count)].due = chance() ? date() : nil }
        case 3:
            let owner = Owner(name: "o\(number(below: 3))", team: number(below: 2))
            state.byOwner[owner, default: []].append(todo(id: 99))
        case 4: state.timers["t\(number(below: 4))"] = .seconds(number(below: 100))
        case 5: state.lastSaved = chance() ? date() : nil
        case 6: state.history.append((0..<number(below: 3)).map { _ in date() })
        case 7: state.byDay[date()] = number(below: 9); state.archived.insert(todo(id: 7))
        case 8:
            state.grid[Owner(name: "g", team: number(below: 3)), default: [:]][Owner(name: "h", team: 0)] = .seconds(1)
        default: state.shifting.append(shifting(depth: number(below: 2)))
        }
        return state
    }
}

@Suite struct CanonicalByteWriterNotesTests {
    private let encoder = CanonicalJSONEncoder()

    /// The notes the tree encoder takes of `value` (through each type's own `encode(to:)`), below `value`.
    private func treeNotes<T: Encodable>(_ value: T) throws -> EncodedTypeNotes {
        var notes = EncodedTypeNotes()
        _ = try encoder.encodeToBytes(TreeOnly(value: value), typeNotes: &notes)
        return notes
    }

    private static func states(count: Int, seed: UInt64) -> [TodosState] {
        var maker = StateMaker(random: SeededRandom(seed: seed))
        var state = TodosState()
        return (0..<count).map { _ in
            state = maker.changed(state)
            return state
        }
    }

    @Test func eachValueIsNotedAsTheTreeEncoderNotesIt() throws {
        for seed: UInt64 in [1, 2, 3] {
            for state in Self.states(count: 60, seed: seed) {
                var notes = EncodedTypeNotes()
                _ = try encoder.encodeToBytes(Wrapped(value: state), typeNotes: &notes)
                #expect(notes == (try treeNotes(state)))
            }
        }
    }

    @Test(arguments: [true, false])
    func aWriterKeptFromStateToStateNotesTheUnionOfTheTreeEncodersNotes(reusesUnchangedParts: Bool) throws {
        let memo = EncodingMemo(reuse: reusesUnchangedParts ? .everyPart : .never, notesForReading: true)
        var expected = EncodedTypeNotes()
        for state in Self.states(count: 150, seed: 7) {
            let bytes = try encoder.encodeToBytes(Wrapped(value: state), reusing: memo)
            #expect(bytes == (try encoder.encodeToBytes(Wrapped(value: state))))
            expected.formUnion(try treeNotes(state))
            #expect(memo.typeNotes == expected)
        }
    }

    @Test func theNotesOfATodosStateAreTheseExactPaths() throws {
        // Given a state with a todo whose optional date is absent (which breaks its type's key order) and one
        // whose is present, a keyed-pair dictionary, and depth-dependent key orders
        var state = TodosState()
        state.todos = [
            Todo(id: 0, title: "a", created: Date(timeIntervalSince1970: 1), events: [.snoozed(.seconds(1))]),
            Todo(id: 1, title: "b", created: Date(timeIntervalSince1970: 2), due: Date(timeIntervalSince1970: 3),
                 stamps: [Stamp(Date(timeIntervalSince1970: 4))]),
        ]
        state.byOwner = [Owner(name: "o", team: 1): [Todo(id: 2, title: "c", created: Date(timeIntervalSince1970: 5))]]
        state.shifting = [Shifting(depth: 0, at: Date(timeIntervalSince1970: 6), inner: [
            Shifting(depth: 1, at: Date(timeIntervalSince1970: 7), inner: []),
        ])]
        state.archived = [Todo(id: 3, title: "d", created: Date(timeIntervalSince1970: 8))]
        // When the byte writer encodes it
        var notes = EncodedTypeNotes()
        _ = try encoder.encodeToBytes(Wrapped(value: state), typeNotes: &notes)
        // Then these are the places noted (empty keyed-pair dictionaries too), and nothing inside the set
        let rendered = String(decoding: JSONValue.object(notes.jsonMembers).canonicalBytes(), as: UTF8.self)
        #expect(rendered == """
            {"dates":[["value","byOwner",{},[],"created"],["value","shifting",[],"at"],\
            ["value","shifting",[],"inner",[],"when"],["value","todos",[],"created"],["value","todos",[],"due"],\
            ["value","todos",[],"stamps",[]]],\
            "durations":[["value","shifting",[],"inner",[],"lasting"],["value","todos",[],"events",[],"snoozed","_0"]],\
            "keyedPairArrays":[["value","byDay"],["value","byOwner"],["value","grid"]],\
            "sets":[["value","archived"],["value","byOwner",{},[],"tags"],["value","todos",[],"tags"]]}
            """)
    }
}
