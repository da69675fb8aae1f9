import SampleSupport
import StoreKitCore
import StoreKitJSON
import Testing

@Suite struct JSONParserTests {
    @Test func parsesEveryKindOfValue() throws {
        let value = try JSONValue(parsing: #" {"a": [1, -2, 3.5, 1e3, true, false, null], "b": "x\u00e9\n", "c": 18446744073709551615} "#)
        #expect(
            value
                == .object([
                    "a": .array([.integer(1), .integer(-2), .double(3.5), .double(1000), .bool(true), .bool(false), .null]),
                    "b": .string("xé\n"),
                    "c": .unsignedInteger(.max),
                ]))
    }

    @Test func decodesSurrogatePairs() throws {
        #expect(try JSONValue(parsing: #""\ud83d\ude00""#) == .string("😀"))
    }

    @Test func decimalsParseToTheNearestDouble() throws {
        // Given decimals with up to 19 digits and exponents on both sides of the exact-power range
        var random = SeededRandom(seed: 11)
        for _ in 0..<5_000 {
            let digits = String(random.next() % 10_000_000_000_000_000_000)
            let cut = Int(random.next() % UInt64(digits.count + 1))
            let fraction = cut < digits.count ? "." + digits.dropFirst(cut) : ""
            let exponent = Int(random.next() % 61) - 30
            let text = (random.next() % 2 == 0 ? "-" : "") + (cut == 0 ? "0" : String(digits.prefix(cut))) + fraction
                + (random.next() % 2 == 0 ? "e\(exponent)" : "")
            guard text.contains(".") || text.contains("e") else { continue }
            // When parsed, then its double is exactly what the standard library reads from the same text (an
            // integer beyond 2^53 is held exactly, and has that double too)
            let parsed = try JSONValue(parsing: text)
            #expect(parsed.doubleValue == Double(text)!, "\(text)")
        }
    }

    /// A number with a fraction or an exponent whose value is an integer no double holds reads as that exact
    /// integer, written back with its digits; where the double's canonical text stands for the value, as `1.0`,
    /// `1e+23` or `1e22` do, it stays the double, written as before.
    @Test(arguments: [
        ("9007199254740993.0", "9007199254740993"), ("9007199254740993e0", "9007199254740993"),
        ("90071992547409930e-1", "9007199254740993"), ("9.007199254740993E+15", "9007199254740993"),
        ("-9007199254740993.000", "-9007199254740993"), ("-9223372036854775809.0", "-9223372036854775809"),
        ("18446744073709551615.0", "18446744073709551615"), ("18446744073709551617.00", "18446744073709551617"),
        ("1.2345678901234567891e19", "12345678901234567891"), ("123456789012345678901234567890e0", "123456789012345678901234567890"),
        ("1e300", "1e+300"), ("1e+23", "1e+23"), ("100000000000000000000000.0", "1e+23"), ("1e22", "1e+22"),
        ("9007199254740992.0", "9007199254740992.0"), ("9007199254740994.0", "9.007199254740994e+15"),
        ("1.0", "1.0"), ("1e0", "1.0"), ("100e-2", "1.0"), ("-0.0", "-0.0"), ("1.5", "1.5"), ("0.1", "0.1"),
        // Not an integer: the nearest double, however many digits it has
        ("9007199254740993.5", "9.007199254740994e+15"),
    ])
    func aNumbersValueIsExactWhateverItsSpelling(_ spelling: String, _ canonical: String) throws {
        let value = try JSONValue(parsing: spelling)
        #expect(value.canonicalString == canonical)
        #expect(try JSONValue(parsing: canonical) == value)
        #expect(try JSONValue(parsing: value.canonicalString).canonicalString == canonical)
    }

    @Test func anIntegerSpelledWithAnExponentEqualsItsDigitsAndNotItsNeighbours() throws {
        let spelled = try JSONValue(parsing: "9007199254740993e0")
        #expect(spelled == .integer(9_007_199_254_740_993))
        #expect(spelled != .integer(9_007_199_254_740_992))
        #expect(spelled.hashValue == JSONValue.integer(9_007_199_254_740_993).hashValue)
        #expect(try JSONValue(parsing: "-9223372036854775809.0") == .bigInteger("-9223372036854775809"))
        #expect(try JSONValue(parsing: "18446744073709551617.00") == .bigInteger("18446744073709551617"))
        #expect(try JSONValue(parsing: "18446744073709551615e0") == .unsignedInteger(.max))
    }

    @Test func objectsThatRepeatOneShapeParseAsTheyAreWritten() throws {
        // Given an array of records that mostly share their keys, with some that lack one, add one or reorder them
        var random = SeededRandom(seed: 5)
        let keys = ["id", "name", "price", "z-a-much-longer-key-than-sixteen-bytes"]
        for _ in 0..<50 {
            let records: [JSONValue] = (0..<40).map { index in
                var members: [String: JSONValue] = [:]
                for key in keys where random.next() % 8 != 0 { members[key] = .integer(Int64(index)) }
                if random.next() % 6 == 0 { members["extra\(random.next() % 3)"] = .string("x") }
                return .object(members)
            }
            let shuffled = records.map { record -> String in
                guard case .object(let members) = record else { return "" }
                let pairs = members.map { "\(JSONValue.string($0.key).canonicalString):\($0.value.canonicalString)" }
                return "{" + (random.next() % 4 == 0 ? pairs.reversed() : pairs.sorted()).joined(separator: ",") + "}"
            }
            // When parsed, then every record has exactly its own members
            #expect(try JSONValue(parsing: "[" + shuffled.joined(separator: ",") + "]") == .array(records))
        }
    }

    @Test func aDuplicateKeyInARecordOfAKnownShapeIsStillAnError() {
        let record = #"{"a":1,"b":2}"#
        let text = "[" + String(repeating: record + ",", count: 3) + #"{"a":1,"a":2}]"#
        let error = #expect(throws: JSONParseError.self) { try JSONValue(parsing: text) }
        #expect(error?.offset == 1 + 3 * (record.utf8.count + 1) + 7)
    }

    struct Invalid: Sendable, CustomTestStringConvertible {
        let input: [UInt8]
        let offset: Int
        var testDescription: String { String(decoding: input, as: UTF8.self) }
        init(_ text: String, at offset: Int) {
            self.input = Array(text.utf8)
            self.offset = offset
        }
        init(bytes: [UInt8], at offset: Int) {
            self.input = bytes
            self.offset = offset
        }
    }

    static let invalid: [Invalid] = [
        Invalid("", at: 0),
        Invalid("{", at: 1),
        Invalid("[1,]", at: 3),
        Invalid("01", at: 0),
        Invalid("NaN", at: 0),
        Invalid("[1] x", at: 4),
        Invalid(#"{"a":1,"a":2}"#, at: 7),
        Invalid("\"a\u{01}\"", at: 2),
        Invalid(#""\ud800""#, at: 1),
        Invalid("1e999", at: 0),
        Invalid("1e400", at: 0),
        Invalid("1000000000000000000000000000000e300", at: 0),
        Invalid(bytes: [0x22, 0xFF, 0x22], at: 1),
        Invalid(String(repeating: "[", count: 600) + String(repeating: "]", count: 600), at: 512),
    ]

    @Test(arguments: invalid)
    func rejectsInvalidInputAtItsOffset(_ example: Invalid) {
        let error = #expect(throws: JSONParseError.self) { try JSONValue(parsing: example.input) }
        #expect(error?.offset == example.offset, "\(error?.description ?? "")")
        #expect(error?.description.hasPrefix("at byte \(example.offset): ") == true)
    }
}
