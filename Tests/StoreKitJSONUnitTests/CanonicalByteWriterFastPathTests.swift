import Foundation
import SampleSupport
import Testing

@testable import StoreKitJSON
import StoreKitTestFixtures

/// Values the byte writer writes without their own `encode(to:)` (UUIDs, durations, arrays element by element) or
/// with word-at-a-time copies (strings, keys), beside the shapes that stress its frames and key orders.
private struct Scalars: Codable {
    var id: UUID
    var ids: [UUID]
    var length: Duration
    var lengths: [Duration]
    var texts: [String]
    var numbers: [Double]
    var empty: [Int] = []
    var emptyTexts: [String] = []
    var nestedEmpty: [[String]] = [[], [""]]
    var optionals: [Int?] = [nil, 1, nil]
    var nestedOptional: String?? = .some(nil)
    var dates: [Date] = [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -1.5)]
    var sets: [Set<Int>] = [[3, 1, 2], []]
}

/// A tree whose nodes share one `CodingKey` type but write their keys in an order that depends on their depth, so
/// an inner object replaces the key order an outer one of the same type is still being written with.
private struct Node: Encodable {
    var name: String
    var depth: Int
    var children: [Node]
    private enum Keys: String, CodingKey { case name, depth, children, zeta }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        if depth % 2 == 0 {
            try container.encode(children, forKey: .children)
            try container.encode(name, forKey: .name)
            try container.encode(depth, forKey: .depth)
        } else {
            try container.encode(depth, forKey: .depth)
            try container.encode(name, forKey: .name)
            try container.encode(children, forKey: .children)
            try container.encode("z", forKey: .zeta)
        }
    }

    static func tree(depth: Int = 0, width: Int) -> Node {
        Node(
            name: "n\(depth)", depth: depth,
            children: depth >= 3 ? [] : (0..<width).map { _ in tree(depth: depth + 1, width: width) })
    }
}

/// Writes a key twice, which the tree encoder settles by keeping the last value.
private struct RepeatedKey: Encodable {
    private enum Keys: String, CodingKey { case zeta, alpha }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(0, forKey: .zeta)
        try container.encode(1, forKey: .alpha)
        try container.encode("again", forKey: .zeta)
    }
}

/// Opens several containers from one `encode(to:)`: a nested keyed and a nested unkeyed one, then writes to the
/// first again.
private struct SeveralContainers: Encodable {
    private enum Keys: String, CodingKey { case b, a, c }
    private enum Inner: String, CodingKey { case y, x }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        var inner = container.nestedContainer(keyedBy: Inner.self, forKey: .c)
        try inner.encode([UUID(uuid: (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 255))], forKey: .y)
        try inner.encode(Duration.seconds(-2), forKey: .x)
        var list = container.nestedUnkeyedContainer(forKey: .a)
        try list.encode(["q": 1])
        try list.encode([Duration.milliseconds(5)])
        try container.encode("b", forKey: .b)
    }
}

/// A dictionary key that `Codable` writes as keyed pairs (neither `String`, `Int` nor `CodingKeyRepresentable`).
private struct Slot: Codable, Hashable {
    var row: Int
    var column: String
}

/// A state with keyed pairs, dates and durations in every kind of place: at the top, in arrays, in pair values,
/// inside other pairs' keys and inside a set's elements (where nothing is noted).
private struct Noted: Codable, Hashable {
    var at = Date(timeIntervalSince1970: 12.5)
    var grid: [Slot: [Date]] = [Slot(row: 2, column: "b"): [Date(timeIntervalSince1970: 1)], Slot(row: 1, column: "a"): []]
    var grids: [[Slot: Duration]] = [[Slot(row: 0, column: "z"): .seconds(3), Slot(row: 0, column: "y"): .zero], [:]]
    var nested: [Slot: [Slot: Int]] = [Slot(row: 5, column: "q"): [Slot(row: 1, column: "r"): 1, Slot(row: 0, column: "s"): 2]]
    var byDate: [Date: String] = [Date(timeIntervalSince1970: 9): "nine", Date(timeIntervalSince1970: 3): "three"]
    var members: Set<Member> = [Member(name: "x"), Member(name: "y", seen: [Slot(row: 1, column: "c"): Date(timeIntervalSince1970: 4)])]

    struct Member: Codable, Hashable {
        var name: String
        var seen: [Slot: Date] = [:]
    }
}

@Suite struct CanonicalByteWriterFastPathTests {
    private let encoder = CanonicalJSONEncoder()

    /// The byte writer's bytes, and the tree encoder's (which goes through every type's own `encode(to:)`).
    private func expectSameBytes<T: Encodable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let fast = String(decoding: try encoder.encodeToBytes(value), as: UTF8.self)
        let tree = String(decoding: try encoder.encode(value).canonicalBytes(), as: UTF8.self)
        #expect(fast == tree, sourceLocation: sourceLocation)
    }

    private static let awkwardStrings: [String] = {
        var strings = ["", "a", "1234567", "12345678", "123456789", "123456789012345", "1234567890123456",
                       "12345678901234567", "é", "naïve café", "日本語のテキスト", "emoji 🎉 inside", "\u{7F}del",
                       "tab\there", "\"quoted\"", "back\\slash", "nul\u{0}byte", "line\nfeed", "\u{1F}",
                       String(repeating: "long plain text ", count: 20)]
        // A byte that needs escaping at every position of a 24-byte string, across the 8-byte words.
        for position in 0..<24 {
            for special in ["\"", "\\", "\n", "\u{1}", "é"] {
                var characters = Array(repeating: "x", count: 24)
                characters[position] = special
                strings.append(characters.joined())
            }
        }
        return strings
    }()

    @Test func stringsAreWrittenAsTheTreeEncoderWritesThem() throws {
        try expectSameBytes(Self.awkwardStrings)
        for string in Self.awkwardStrings {
            var expected: [UInt8] = []
            JSONValue.writeString(string, to: &expected)
            #expect(try encoder.encodeToBytes(string) == expected, "\(string.debugDescription)")
        }
    }

    @Test func uuidsAreWrittenAsTheirUUIDString() throws {
        var random = SeededRandom(seed: 3)
        var uuids = [UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
                     UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255))]
        for _ in 0..<200 { uuids.append(UUID(uuid: Self.randomBytes(&random))) }
        for uuid in uuids {
            #expect(try encoder.encodeToBytes(uuid) == Array("\"\(uuid.uuidString)\"".utf8))
        }
        try expectSameBytes(uuids)
    }

    @Test func durationsAreWrittenAsTheirOwnEncodeToWritesThem() throws {
        let durations: [Duration] = [
            .zero, .seconds(1), .seconds(-1), .nanoseconds(-1), .milliseconds(1500), .seconds(Int64.max),
            .seconds(Int64.min), Duration(_high: Int64.min, low: 0), Duration(_high: -1, low: UInt64.max),
            Duration(_high: Int64.max, low: UInt64.max),
        ]
        for duration in durations {
            // What `Duration`'s own `encode(to:)` gives, through Foundation's encoder.
            let own = try JSONEncoder().encode([duration])
            #expect(try encoder.encodeToBytes([duration]) == Array(own), "\(duration)")
        }
        try expectSameBytes(durations)
    }

    @Test func scalarsInArraysAndEmptyContainersAreWrittenAsTheTreeEncoderWritesThem() throws {
        var random = SeededRandom(seed: 11)
        let value = Scalars(
            id: UUID(uuid: Self.randomBytes(&random)), ids: (0..<5).map { _ in UUID(uuid: Self.randomBytes(&random)) },
            length: .seconds(12.5), lengths: [.zero, .seconds(-3), .microseconds(7)], texts: Self.awkwardStrings,
            numbers: [0, -0.0, 1, -1, 0.1, 2.675, 1e300, -1e-300, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 123_456.789,
                      0.001, 0.0009, 999_999_999.999, 1e9])
        try expectSameBytes(value)
        try expectSameBytes([value, value])
        try expectSameBytes([[Scalars]]([[], [value]]))
    }

    @Test func nonFiniteNumbersInArraysStillThrowNamingThePath() {
        struct Holder: Encodable { var values: [[Double]] }
        let error = #expect(throws: EncodingError.self) {
            _ = try encoder.encodeToBytes(Holder(values: [[1], [2, -.infinity]]))
        }
        #expect(error?.jsonPath == "values[1][1]")
    }

    @Test func objectsOfOneKeyTypeNestedInsideEachOtherKeepTheirOwnKeyOrders() throws {
        try expectSameBytes(Node.tree(width: 2))
        try expectSameBytes([Node.tree(width: 1), Node.tree(width: 3)])
    }

    @Test func severalContainersFromOneEncodeToAreWrittenAsTheTreeEncoderWritesThem() throws {
        try expectSameBytes(SeveralContainers())
        try expectSameBytes([SeveralContainers(), SeveralContainers()])
    }

    @Test func aWriterKeptFromValueToValueGivesTheBytesOfEncodingEachAlone() throws {
        let memo = EncodingMemo(reuse: .never)
        var random = SeededRandom(seed: 5)
        for step in 0..<20 {
            let value = Scalars(
                id: UUID(uuid: Self.randomBytes(&random)), ids: [], length: .seconds(step), lengths: [],
                texts: Array(Self.awkwardStrings.prefix(step)), numbers: [Double(step) / 3])
            let node = Node.tree(width: step % 3 + 1)
            #expect(try encoder.encodeToBytes(value, reusing: memo) == encoder.encode(value).canonicalBytes())
            #expect(try encoder.encodeToBytes(node, reusing: memo) == encoder.encode(node).canonicalBytes())
        }
    }

    @Test func aKeyWrittenTwiceKeepsTheLastValueEvenWithAWriterThatSawItBefore() throws {
        // Given a writer that met the repeated key once already
        let memo = EncodingMemo(reuse: .never)
        let expected = Array(#"{"alpha":1,"zeta":"again"}"#.utf8)
        #expect(try encoder.encodeToBytes(RepeatedKey(), reusing: memo) == expected)
        // Then it still does not write the key twice
        #expect(try encoder.encodeToBytes(RepeatedKey(), reusing: memo) == expected)
        #expect(try encoder.encodeToBytes([RepeatedKey(), RepeatedKey()], reusing: memo) == Array("[\(String(decoding: expected, as: UTF8.self)),\(String(decoding: expected, as: UTF8.self))]".utf8))
    }

    @Test func setsAndKeyedPairsAreWrittenAndNotedAsTheTreeEncoderDoes() throws {
        let value = Noted()
        var fastNotes = EncodedTypeNotes()
        var treeNotes = EncodedTypeNotes()
        let fast = try encoder.encodeToBytes(Wrapped(value: value), typeNotes: &fastNotes)
        let tree = try encoder.encodeToBytes(TreeOnly(value: value), typeNotes: &treeNotes)
        #expect(String(decoding: fast, as: UTF8.self) == String(decoding: tree, as: UTF8.self))
        #expect(fastNotes == treeNotes)
        #expect(fastNotes.paths[.keyedPairArrays]?.contains([.member("value"), .member("nested"), .pairValue]) == true)
        #expect(fastNotes.paths[.durations]?.contains([.member("value"), .member("grids"), .element, .pairValue]) == true)
        try expectSameBytes([value, Noted(at: .distantPast, grid: [:], grids: [], nested: [:], byDate: [:], members: [])])
        try expectSameBytes(Set([value, Noted(at: .distantFuture)]))
    }

    private static func randomBytes(_ random: inout SeededRandom) -> uuid_t {
        let high = random.next()
        let low = random.next()
        return withUnsafeBytes(of: (high, low)) { bytes in
            (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
             bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15])
        }
    }
}
