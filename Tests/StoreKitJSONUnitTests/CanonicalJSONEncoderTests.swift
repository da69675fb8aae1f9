import Foundation
import SampleSupport
import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import StoreKitTestFixtures
import Testing

/// A state holding a dictionary keyed by a struct.
private struct State: Codable, Equatable {
    var counts: [KeyedScores.PlayerID: Int]
}

/// A value exercising every part of the Codable model.
private struct Everything: Codable, Equatable {
    enum Kind: Codable, Equatable {
        case plain
        case labelled(name: String, count: Int)
        case unlabelled(Double, [Int])
    }

    var text = "héllo \"quoted\"\n"
    var small: Int8 = -8
    var big = UInt64.max
    var smallest = Int64.min
    var ratio = 0.1
    var float: Float = 0.1
    var flag = true
    var maybe: String? = nil
    var list = [1, 2, 3]
    var nested = [["a": 1], ["b": 2]]
    var byInt = [3: "three", 1: "one"]
    var set: Set<String> = ["x", "y"]
    var date = Date(timeIntervalSince1970: 1_795_000_000.25)
    var data = Data([0, 1, 2, 255])
    var url = URL(string: "https://example.com/a?b=c")!
    var kinds: [Kind] = [.plain, .labelled(name: "n", count: 2), .unlabelled(2.5, [7])]
    var raw: JSONValue = .object(["any": .array([.null])])
}

@Suite struct CanonicalJSONEncoderTests {
    @Test func roundTripsEverythingThroughTheDecoder() throws {
        let value = Everything()
        let json = try CanonicalJSONEncoder().encode(value)
        #expect(try JSONValueDecoder().decode(Everything.self, from: json) == value)
    }

    @Test func usesTheFixedStrategies() throws {
        let json = try CanonicalJSONEncoder().encode(Everything())
        #expect(json["date"] == .double(1_795_000_000.25))
        #expect(json["data"] == .string("AAEC/w=="))
        #expect(json["url"] == .string("https://example.com/a?b=c"))
        #expect(json["float"] == .double(0.1))
        #expect(json["big"] == .unsignedInteger(.max))
        #expect(json["maybe"] == nil)
        #expect(json["byInt"] == .object(["1": .string("one"), "3": .string("three")]))
        #expect(json["kinds"]?.arrayValue?[1] == .object(["labelled": .object(["name": .string("n"), "count": .integer(2)])]))
    }

    @Test func writesCanonicalBytes() throws {
        let value: [String: [JSONValue]] = ["b": [.double(1.0), .double(0.5)], "a": [.string("x/y")]]
        let bytes = try CanonicalJSONEncoder().encodeToBytes(value)
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"a":["x/y"],"b":[1.0,0.5]}"#)
    }

    @Test func equalValuesGiveEqualBytesWhateverTheirHistory() throws {
        var first: [String: Int] = [:]
        for key in ["z", "a", "m"] { first[key] = key.count }
        var second: [String: Int] = [:]
        for key in ["m", "z", "a"] { second[key] = key.count }
        #expect(try CanonicalJSONEncoder().encodeToBytes(first) == CanonicalJSONEncoder().encodeToBytes(second))
    }

    @Test func setsEncodeSortedSoEqualSetsAreEqualBytesInEveryProcess() throws {
        // A Set's own iteration order is seeded per process; the canonical form must not depend on it.
        let words = (0..<200).map { "word-\($0)" }
        let set = Set(words)
        let expected = try CanonicalJSONEncoder().encodeToBytes(words.map { Array($0.utf8) }.sorted {
            $0.lexicographicallyPrecedes($1)
        }.map { String(decoding: $0, as: UTF8.self) })
        #expect(try CanonicalJSONEncoder().encodeToBytes(set) == expected)
        #expect(try CanonicalJSONEncoder().encode(set).canonicalBytes() == expected)
        let nested: [String: Set<Int>] = ["b": [10, 2, 33], "a": []]
        #expect(String(decoding: try CanonicalJSONEncoder().encodeToBytes(nested), as: UTF8.self) == #"{"a":[],"b":[10,2,33]}"#)
    }

    @Test func rejectsNonFiniteNumbersNamingThePath() {
        struct Holder: Codable { var values: [Double] }
        let error = #expect(throws: EncodingError.self) {
            _ = try CanonicalJSONEncoder().encode(Holder(values: [1, .infinity]))
        }
        #expect(error?.jsonPath == "values[1]")
    }

    @Test func canonicalTextParsesBackToTheSameValue() throws {
        // Given many random values from a fixed seed
        var random = SeededRandom(seed: 42)
        for _ in 0..<300 {
            let value = random.value(depth: 0)
            // When written canonically and parsed, then nothing changes
            #expect(try JSONValue(parsing: value.canonicalBytes()) == value)
        }
    }

    @Test func aDictionaryKeyedByAStructEncodesItsPairsSortedWhateverItsHistory() throws {
        // Given one [PlayerID: Int] built in several orders and capacities, so that its hash order differs
        let ids = (0..<40).map { KeyedScores.PlayerID(String(format: "%08X-0000-4000-8000-%012X", $0 * 2_654_435_761 % 0xFFFF_FFFF, $0)) }
        func counts(_ order: [Int], capacity: Int) -> [KeyedScores.PlayerID: Int] {
            var counts: [KeyedScores.PlayerID: Int] = [:]
            counts.reserveCapacity(capacity)
            for index in order { counts[ids[index]] = index }
            return counts
        }
        let histories = [
            counts(Array(0..<40), capacity: 0), counts(Array((0..<40).reversed()), capacity: 0),
            counts(Array(0..<40), capacity: 1000), counts((0..<40).map { $0 * 7 % 40 }, capacity: 90),
        ]

        // When each is encoded by the byte writer, the tree encoder, and the byte writer with a memo
        let expected = try CanonicalJSONEncoder().encodeToBytes(State(counts: histories[0]))
        let memo = EncodingMemo()
        for history in histories {
            #expect(try CanonicalJSONEncoder().encodeToBytes(State(counts: history), reusing: memo) == expected)
            #expect(try CanonicalJSONEncoder().encodeToBytes(State(counts: history), reusing: memo) == expected)
        }
        #expect(memo.typeNotes == EncodedTypeNotes([.keyedPairArrays: [[.member("counts")]]]))
        for history in histories {
            let state = State(counts: history)
            #expect(try CanonicalJSONEncoder().encodeToBytes(state) == expected)
            #expect(try CanonicalJSONEncoder().encode(state).canonicalBytes() == expected)
            var places = EncodedTypeNotes()
            #expect(try CanonicalJSONEncoder().encodeToBytes(state, typeNotes: &places) == expected)
            #expect(places == EncodedTypeNotes([.keyedPairArrays: [[.member("counts")]]]))
        }

        // Then the bytes are the same: the pairs sorted by key, and they decode back to the dictionary
        let pairs = try JSONValue(parsing: expected)["counts"]!.arrayValue!
        let keys = stride(from: 0, to: pairs.count, by: 2).map { pairs[$0].stringValue! }
        #expect(keys == ids.map(\.uuid.uuidString).sorted())
        #expect(try JSONValueDecoder().decode(State.self, from: JSONValue(parsing: expected)) == State(counts: histories[1]))
        #expect(try JSONDecoder().decode(State.self, from: Data(expected)) == State(counts: histories[2]))
    }

    @Test func notesKeyedPairArraysInsideArraysAndInsidePairValues() throws {
        // Given keyed-pair dictionaries under an array and inside another one's values
        struct Team: Codable { var members: [KeyedScores.PlayerID: String] }
        struct League: Codable {
            var teams: [Team]
            var byCaptain: [KeyedScores.PlayerID: Team]
            var byName: [String: Int]
        }
        let league = League(
            teams: [Team(members: [KeyedScores.ada: "ada"])], byCaptain: [KeyedScores.bob: Team(members: [:])],
            byName: ["x": 1])

        // When it is encoded, then every place is noted, array indices and pair values generalised
        var places = EncodedTypeNotes()
        _ = try CanonicalJSONEncoder().encodeToBytes(league, typeNotes: &places)
        #expect(
            places
                == EncodedTypeNotes([
                    .keyedPairArrays: [
                        [.member("teams"), .element, .member("members")], [.member("byCaptain")],
                        [.member("byCaptain"), .pairValue, .member("members")],
                    ]
                ]))
        #expect(try EncodedTypeNotes(jsonMembers: places.jsonMembers) == places)
    }

    @Test func theTreeEncoderSortsAndNotesKeyedPairsToo() throws {
        // Given a value the byte writer cannot follow (it holds a Decimal), with a keyed-pair dictionary
        struct Priced: Codable {
            var price: Decimal
            var counts: [KeyedScores.PlayerID: Int]
        }
        let priced = Priced(price: Decimal(string: "1.25")!, counts: [KeyedScores.bob: 2, KeyedScores.ada: 1, KeyedScores.cy: 3])

        // When it is encoded, then the pairs are sorted and the place is noted all the same
        var places = EncodedTypeNotes()
        let bytes = try CanonicalJSONEncoder().encodeToBytes(priced, typeNotes: &places)
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == #"{"counts":["0E1F2A3B-0000-4000-8000-000000000003",3,"3F2504E0-4F89-11D3-9A0C-0305E82C3301",1,"#
                + #""A1B2C3D4-0000-4000-8000-000000000002",2],"price":1.25}"#)
        #expect(places == EncodedTypeNotes([.keyedPairArrays: [[.member("counts")]]]))
    }

    @Test func notesWhereSetsAreButNothingInsideThem() throws {
        // Given sets at the top, under an array, inside a keyed pair's value, and holding sets of their own
        struct Card: Codable, Hashable { var labels: Set<String> }
        struct Board: Codable {
            var tags: Set<String>
            var cards: [Card]
            var byOwner: [KeyedScores.PlayerID: Card]
            var archived: Set<Card>
        }
        let board = Board(
            tags: ["urgent", "new"], cards: [Card(labels: ["b", "a"])], byOwner: [KeyedScores.ada: Card(labels: [])],
            archived: [Card(labels: ["x"])])

        // When it is encoded by the byte writer
        var places = EncodedTypeNotes()
        _ = try CanonicalJSONEncoder().encodeToBytes(board, typeNotes: &places)

        // Then each set's place is noted, array indices and pair values generalised, and nothing inside a set
        #expect(
            String(decoding: JSONValue.object(places.jsonMembers).canonicalBytes(), as: UTF8.self)
                == #"{"keyedPairArrays":[["byOwner"]],"sets":[["archived"],["byOwner",{},"labels"],["cards",[],"labels"],["tags"]]}"#)
        #expect(try EncodedTypeNotes(jsonMembers: places.jsonMembers) == places)
    }

    @Test func theTreeEncoderNotesSetsToo() throws {
        // Given a value the byte writer cannot follow (it holds a Decimal), with a set
        struct Priced: Codable {
            var price: Decimal
            var tags: Set<Int>
        }

        // When it is encoded, then the set is sorted and its place noted all the same
        var places = EncodedTypeNotes()
        let bytes = try CanonicalJSONEncoder().encodeToBytes(Priced(price: 1, tags: [3, 1, 2]), typeNotes: &places)
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"price":1,"tags":[1,2,3]}"#)
        #expect(places == EncodedTypeNotes([.sets: [[.member("tags")]]]))
    }

}

/// Random JSON values from a seed.
extension SeededRandom {

    mutating func value(depth: Int) -> JSONValue {
        switch next() % (depth > 3 ? 6 : 8) {
        case 0: return .null
        case 1: return .bool(next() % 2 == 0)
        case 2: return .integer(Int64(bitPattern: next()))
        case 3: return .double(Double(bitPattern: next() & 0x7FEF_FFFF_FFFF_FFFF) * (next() % 2 == 0 ? 1 : -1))
        case 4: return .unsignedInteger(UInt64(Int64.max) + 1 + next() % 1000)
        case 5:
            let scalars = (0..<Int(next() % 6)).map { _ in Character(Unicode.Scalar(UInt32(next() % 0xD7FF)) ?? "x") }
            return .string(String(scalars))
        case 6: return .array((0..<Int(next() % 4)).map { _ in value(depth: depth + 1) })
        default:
            var members: [String: JSONValue] = [:]
            for index in 0..<Int(next() % 4) { members["k\(index)\(next() % 10)"] = value(depth: depth + 1) }
            return .object(members)
        }
    }
}

/// A class hierarchy that encodes through a super encoder, which the byte fast path hands to the tree encoder.
private class Base: Encodable {
    var base = 1
    private enum CodingKeys: String, CodingKey { case base }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(base, forKey: .base)
    }
}

private final class Derived: Base {
    var extra = "x"
    private enum CodingKeys: String, CodingKey { case extra, parent }
    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(extra, forKey: .extra)
        try super.encode(to: container.superEncoder(forKey: .parent))
    }
}

/// Writes to a parent container after filling a nested one, in an order synthesized code never uses.
private struct Interleaved: Encodable {
    private enum Keys: String, CodingKey { case z, a, m }
    private enum Inner: String, CodingKey { case y, b }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        var nested = container.nestedContainer(keyedBy: Inner.self, forKey: .m)
        try nested.encode(2, forKey: .y)
        try nested.encode(1, forKey: .b)
        try container.encode("last", forKey: .z)
        var list = container.nestedUnkeyedContainer(forKey: .a)
        try list.encode(1)
        var inList = list.nestedContainer(keyedBy: Inner.self)
        try inList.encode(3, forKey: .y)
    }
}

/// Records of one `CodingKey` type whose keys differ from object to object: some absent, some written in
/// another order, one written twice.
private struct VaryingRecord: Encodable {
    enum Keys: String, CodingKey { case zeta, alpha, mid }
    var present: [Keys]
    var repeated: Keys?
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        for (index, key) in present.enumerated() { try container.encode(index, forKey: key) }
        if let repeated { try container.encode("again", forKey: repeated) }
    }
}

@Suite struct CanonicalByteWriterTests {
    private func expectSameBytes<T: Encodable>(_ value: T) throws {
        let encoder = CanonicalJSONEncoder()
        let fast = try encoder.encodeToBytes(value)
        let tree = try encoder.encode(value).canonicalBytes()
        #expect(String(decoding: fast, as: UTF8.self) == String(decoding: tree, as: UTF8.self))
    }

    @Test func writesTheSameBytesAsTheTreeEncoder() throws {
        try expectSameBytes(Everything())
        try expectSameBytes([Everything(), Everything()])
        try expectSameBytes(["b": 1, "a": 2, "é": 3, "Z": 4])
        try expectSameBytes([Int?.none, 1])
        try expectSameBytes(Derived())
        try expectSameBytes(Interleaved())
        try expectSameBytes(Set(["x", "y", "z"]).sorted())
        try expectSameBytes(Set((0..<50).map { "s\($0)" }))
        try expectSameBytes(Decimal(string: "12.50")!)
    }

    @Test func errorsStillNameThePath() {
        struct Holder: Codable { var values: [Double] }
        let error = #expect(throws: EncodingError.self) {
            _ = try CanonicalJSONEncoder().encodeToBytes(Holder(values: [.nan]))
        }
        #expect(error?.jsonPath == "values[0]")
    }

    @Test func reusedKeyOrdersFollowEachObjectsOwnKeys() throws {
        let records = [
            VaryingRecord(present: [.zeta, .alpha, .mid]), VaryingRecord(present: [.zeta, .alpha, .mid]),
            VaryingRecord(present: [.zeta, .mid]), VaryingRecord(present: [.alpha, .mid, .zeta]),
            VaryingRecord(present: [.mid]), VaryingRecord(present: [.zeta, .alpha, .mid]),
            VaryingRecord(present: [.zeta, .alpha]),
        ]
        try expectSameBytes(records)
        let bytes = try CanonicalJSONEncoder().encodeToBytes(records)
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix(#"[{"alpha":1,"mid":2,"zeta":0},"#))
    }

    @Test func aKeyWrittenTwiceKeepsTheLastValueAsTheTreeEncoderDoes() throws {
        let record = VaryingRecord(present: [.zeta, .alpha], repeated: .zeta)
        try expectSameBytes([record, record])
        #expect(try CanonicalJSONEncoder().encodeToBytes(record) == Array(#"{"alpha":1,"zeta":"again"}"#.utf8))
    }

    @Test func doublesAreWrittenWithTheFewestDigitsThatReadBack() throws {
        var random = SeededRandom(seed: 7)
        var values: [Double] = [0, -0.0, 1, -1, 0.1, 0.99, 1.005, 2.675, 0.001, 0.0009, 999_999_999.999, 1e9, 1e15,
                                9_007_199_254_740_992, 1e16, 123_456.78, .leastNonzeroMagnitude, .greatestFiniteMagnitude]
        for _ in 0..<20_000 {
            let scale = [1.0, 10, 100, 1000, 10_000][Int(random.next() % 5)]
            values.append(Double(Int64(bitPattern: random.next()) % 2_000_000_000_000) / scale)
            values.append(Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF))
        }
        for value in values {
            var expected = value.description
            if !expected.contains(".") && !expected.contains("e") { expected += ".0" }
            let written = String(decoding: try CanonicalJSONEncoder().encodeToBytes(value), as: UTF8.self)
            #expect(written == expected, "\(value)")
            #expect(Double(written) == value)
        }
    }
}
