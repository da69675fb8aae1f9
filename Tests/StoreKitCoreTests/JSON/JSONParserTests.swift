import StoreKitCore
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
