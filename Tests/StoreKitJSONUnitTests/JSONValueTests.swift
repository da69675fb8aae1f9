import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import Testing

@Suite struct JSONValueTests {
    private let precomposed = "caf\u{E9}"
    private let decomposed = "cafe\u{301}"

    @Test func stringsCompareByCodePointsNotCanonicalEquivalence() {
        // Given "café" precomposed (NFC) and decomposed (NFD), which Swift's String calls equal
        #expect(precomposed == decomposed)

        // Then as JSON they are different strings, with different hashes in practice
        #expect(JSONValue.string(precomposed) != JSONValue.string(decomposed))
        #expect(Set([JSONValue.string(precomposed), .string(decomposed)]).count == 2)
        #expect(JSONValue.string(precomposed) == .string("caf\u{E9}"))
    }

    @Test func objectKeysCompareByCodePoints() {
        let nfc: JSONValue = .object([precomposed: .integer(1)])
        let nfd: JSONValue = .object([decomposed: .integer(1)])
        #expect(nfc != nfd)
        #expect(nfc == .object([precomposed: .integer(1)]))
    }

    @Test(arguments: [
        // Small objects, whose keys are compared one by one, and a large one (nine members), whose keys are hashed
        #"{"id":1,"name":"a","price":0.5,"tags":["x"]}"#,
        #"{"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":[1,{"a":true}]}"#,
    ])
    func objectsOfOneShapeCompareByValueWhateverTheirBytesAndMemberOrder(object: String) throws {
        // Given one object parsed many times in a row (the parser learns its shape) by two parsers
        let copies = "[" + Array(repeating: object, count: 4).joined(separator: ",") + "]"
        let first = try JSONValue(parsing: copies)
        let second = try JSONValue(parsing: copies)
        let element = try JSONValue(parsing: object)
        let members = try #require(element.objectValue)

        // When the object is written with its members in another order, its numbers as doubles, its keys escaped
        let reordered = try JSONValue(parsing: "{" + members.keys.sorted(by: >).map { key in
            let value = members[key]!.canonicalString.replacingOccurrences(of: "1", with: "1.0")
            return #""\u\#(String(format: "%04x", key.unicodeScalars.first!.value))\#(key.dropFirst())":\#(value)"#
        }.joined(separator: ",") + "}")

        // Then every copy equals the others and the reordered object
        #expect(first == second)
        for copy in first.arrayValue! + second.arrayValue! {
            #expect(copy == element && element == copy)
            #expect(copy == reordered && reordered == copy)
        }

        // And a value changed, a key renamed or a member taken away makes them differ, in either direction
        for key in members.keys {
            var changedValue = members
            changedValue[key] = .string("changed")
            var renamed = members
            renamed["\(key)\u{301}"] = renamed.removeValue(forKey: key)
            var fewer = members
            fewer[key] = nil
            for other in [changedValue, renamed, fewer].map(JSONValue.object) {
                for copy in first.arrayValue! {
                    #expect(copy != other && other != copy)
                }
            }
        }
    }

    @Test func objectsParsedAlikeInOneDocumentCompareByTheirValues() throws {
        // Given objects of one shape in one document, one with a different value and one with a double for an integer
        let text = #"[{"id":1,"n":"a"},{"id":1,"n":"a"},{"id":1,"n":"a"},"#
            + #"{"id":1,"n":"b"},{"id":1.0,"n":"a"},{"n":"a","id":1}]"#
        let elements = try #require(try JSONValue(parsing: text).arrayValue)

        // Then those of equal values are equal, whatever their bytes or member order, and the other differs
        #expect(elements[0] == elements[2] && elements[2] == elements[0])
        #expect(elements[0] != elements[3] && elements[3] != elements[0])
        #expect(elements[0] == elements[4] && elements[4] == elements[0])
        #expect(elements[0] == elements[5] && elements[5] == elements[0])
        #expect(elements[3] != elements[4] && elements[3] != elements[5])
    }

    @Test func aMemberIsFoundByItsKeysCodePointsInSmallAndLargeObjects() throws {
        // Given a small and a large object, each with a key precomposed
        let small = try JSONValue(parsing: #"{"a":1,"\#(precomposed)":2}"#)
        let large = try JSONValue(parsing: #"{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"\#(precomposed)":9}"#)

        // Then the key finds its member, and the decomposed key, which Swift's String calls equal, finds none
        #expect(small[precomposed] == .integer(2))
        #expect(small[decomposed] == nil)
        #expect(small["b"] == nil)
        #expect(large[precomposed] == .integer(9))
        #expect(large[decomposed] == nil)
        #expect(large["h"] == .integer(8))
    }

    @Test func anObjectEqualsItsCopyAsAnArrayDoesEvenHoldingANaNAndAnEqualObjectBuiltApartStillCompares() {
        // Given an object and an array holding a double that is not equal to itself
        let members: [String: JSONValue] = ["x": .double(.nan), "n": .integer(1)]
        let object = JSONValue.object(members)
        let array = JSONValue.array([.double(.nan)])

        // Then a copy of either is the same value (its storage is), as Swift's `Array` has it
        let objectCopy = object
        #expect(array == array)
        #expect(object == objectCopy)
        // And objects built apart compare member by member
        #expect(JSONValue.object(["n": .integer(1), "x": .double(.nan)]) != object)
        #expect(JSONValue.object(["n": .integer(1), "x": .double(2)]) == .object(["x": .double(2), "n": .double(1)]))
    }

    @Test func theParserRefusesKeysThatDifferOnlyByNormalizationAsDuplicates() {
        let text = #"{"\#(precomposed)":1,"\#(decomposed)":2}"#
        #expect {
            try JSONValue(parsing: Array(text.utf8))
        } throws: { error in
            "\(error)".contains("duplicate key")
        }
    }

    @Test func integersBeyondSixtyFourBitsKeepEveryDigit() throws {
        // Given 2^64+1 and 2^64+2, which are the same Double
        let first = try JSONValue(parsing: Array("18446744073709551617".utf8))
        let second = try JSONValue(parsing: Array("18446744073709551618".utf8))

        // Then they are different values, each held exactly
        #expect(first == .bigInteger("18446744073709551617"))
        #expect(first != second)
        #expect(StateDiff(from: first, to: second).changes.count == 1)
        #expect(first.doubleValue == 18446744073709551616.0)
        #expect(first.typeName == "number")
    }

    @Test(arguments: [
        "18446744073709551616", "-9223372036854775809", "123456789012345678901234567890123456789012345678901234567890",
        #"{"a":[-100000000000000000000000,1,18446744073709551615]}"#,
    ])
    func aBigIntegerRoundTripsThroughParseAndCanonicalWriteByteForByte(text: String) throws {
        let value = try JSONValue(parsing: Array(text.utf8))
        #expect(value.canonicalString == text)
        #expect(try CanonicalJSONEncoder().encodeToBytes(value) == Array(text.utf8))
        #expect(try CanonicalJSONEncoder().encode(value) == value)
    }

    @Test func numbersCompareByExactValueAcrossKinds() throws {
        #expect(JSONValue.integer(1) == .double(1.0))
        #expect(JSONValue.integer(1).hashValue == JSONValue.double(1.0).hashValue)
        #expect(JSONValue.double(0.0) == .double(-0.0))
        #expect(JSONValue.integer(1) != .double(1.5))
        #expect(JSONValue.unsignedInteger(UInt64(Int64.max) + 1) != .double(9223372036854775808.0))
        // A double stands for the decimal its canonical text writes: 2^63 as `9.223372036854776e+18`, 1e30 as
        // `1e+30`, though their binary values are 9223372036854775808 and 1000000000000000019884624838656.
        #expect(JSONValue.unsignedInteger(9_223_372_036_854_776_000) == .double(9223372036854775808.0))
        #expect(JSONValue.bigInteger("1000000000000000000000000000000") == .double(1e30))
        #expect(JSONValue.bigInteger("1000000000000000019884624838656") != .double(1e30))
        #expect(JSONValue.bigInteger("-1000000000000000000000000000000") == .double(-1e30))
        #expect(JSONValue.bigInteger("1000000000000000000000000000000").hashValue == JSONValue.double(1e30).hashValue)
    }

    @Test func aBigIntegerDecodesAsADoubleOrDecimalAndIsRefusedByFixedWidthIntegers() throws {
        struct Holder: Decodable {
            var value: Int64
        }
        let big = try JSONValue(parsing: Array("184467440737095516170".utf8))
        #expect(try JSONValueDecoder().decode(Double.self, from: big) == 184467440737095516170.0)
        #expect(try JSONValueDecoder().decode(Decimal.self, from: big) == Decimal(string: "184467440737095516170"))
        #expect {
            try JSONValueDecoder().decode(Holder.self, from: .object(["value": big]))
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return false }
            return context.debugDescription == "184467440737095516170 does not fit in Int64"
                && context.codingPath.map(\.stringValue) == ["value"]
        }
    }
}
