/// A JSON document held as a value: what a session line, a recorded action or a recorded state is made of.
///
/// `JSONValue` is the common currency of StoreKitCore: sessions are parsed into it, states are encoded into it
/// canonically (see ``CanonicalJSONEncoder``), and ``StateDiff`` compares two of them.
///
/// Numbers keep their kind so that a value survives a round trip exactly: integers that fit `Int64` are
/// ``integer(_:)``, larger non-negative integers are ``unsignedInteger(_:)`` (for example a random seed held in
/// a `UInt64`), integers beyond both are ``bigInteger(_:)`` with their exact digits, and everything else with a
/// fraction or an exponent is ``double(_:)`` (an integer beyond 2^53 written `9007199254740993.0` is an integer).
/// Object members are held by key; their order carries no meaning, and canonical output sorts them.
///
/// Two values are equal as JSON says (see `docs/json-equality.md`): strings and keys by their Unicode code points
/// (`"é"` precomposed is not `"e"` followed by a combining accent, though Swift's `String` calls them equal),
/// numbers by their exact value whatever their kind (`1` equals `1.0`; two integers beyond 64 bits are equal only
/// when all their digits are; a double's value is that of its canonical text, so the `Double` nearest 10^23, written
/// `1e+23`, equals `100000000000000000000000`).
public enum JSONValue: Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer that fits in `Int64`.
    case integer(Int64)
    /// A non-negative integer larger than `Int64.max`.
    case unsignedInteger(UInt64)
    /// An integer beyond `Int64` and `UInt64`, as its canonical decimal digits: an optional `-`, then digits
    /// without leading zeros, as in `18446744073709551617`. The parser makes one for such integers (within a
    /// finite `Double`'s range), and canonical output writes the digits back unchanged.
    case bigInteger(String)
    /// A number with a fraction or an exponent. Always finite: JSON has no NaN or infinity.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object; keys are unique.
    case object([String: JSONValue])
}

extension JSONValue {
    /// The member named `key` when this is an object, else `nil`. Keys match by their code points: `"é"`
    /// (U+00E9) does not find a member named `"e\u{301}"`.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[exactKey: key]
    }

    /// The string when this is a string, else `nil`.
    public var stringValue: String? {
        guard case .string(let string) = self else { return nil }
        return string
    }

    /// The integer when this is an integer that fits `Int64`, else `nil`.
    public var integerValue: Int64? {
        guard case .integer(let integer) = self else { return nil }
        return integer
    }

    /// The number as a `Double` when this is any kind of number, else `nil`.
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .unsignedInteger(let value): Double(value)
        case .bigInteger(let digits): Double(digits)
        case .double(let value): value
        default: nil
        }
    }

    /// The members when this is an object, else `nil`.
    public var objectValue: [String: JSONValue]? {
        guard case .object(let members) = self else { return nil }
        return members
    }

    /// The elements when this is an array, else `nil`.
    public var arrayValue: [JSONValue]? {
        guard case .array(let elements) = self else { return nil }
        return elements
    }

    /// The JSON type's name as people say it: `null`, `boolean`, `number`, `string`, `array` or `object`.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .integer, .unsignedInteger, .bigInteger, .double: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}
