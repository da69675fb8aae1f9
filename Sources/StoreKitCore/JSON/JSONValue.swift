/// A JSON document held as a value: what a session line, a recorded action or a recorded state is made of.
///
/// `JSONValue` is the common currency of StoreKitCore: sessions are parsed into it, states are encoded into it
/// canonically (see ``CanonicalJSONEncoder``), and ``StateDiff`` compares two of them.
///
/// Numbers keep their kind so that a value survives a round trip exactly: integers that fit `Int64` are
/// ``integer(_:)``, larger non-negative integers are ``unsignedInteger(_:)`` (for example a random seed held in
/// a `UInt64`), and everything with a fraction or an exponent is ``double(_:)``.
/// Object members are held by key; their order carries no meaning, and canonical output sorts them.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer that fits in `Int64`.
    case integer(Int64)
    /// A non-negative integer larger than `Int64.max`.
    case unsignedInteger(UInt64)
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
    /// The member named `key` when this is an object, else `nil`.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
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
        case .integer, .unsignedInteger, .double: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}
