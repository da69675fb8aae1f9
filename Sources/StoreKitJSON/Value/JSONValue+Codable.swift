import Foundation

extension JSONValue: Codable {
    /// Decodes any JSON value (through Foundation's `JSONDecoder` or ``JSONValueDecoder``).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let integer = try? container.decode(Int64.self) {
            self = .integer(integer)
        } else if let integer = try? container.decode(UInt64.self) {
            self = .unsignedInteger(integer)
        } else if let number = try? container.decode(Double.self) {
            self = .double(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let elements = try? container.decode([JSONValue].self) {
            self = .array(elements)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Encodes the value as itself.
    /// - Throws: `EncodingError.invalidValue` for a ``bigInteger(_:)`` that a `Decimal` (38 digits) cannot hold
    ///   exactly, which an `Encoder` has no other way to write. The canonical encoders write every one exactly.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .unsignedInteger(let value): try container.encode(value)
        case .bigInteger(let digits):
            guard let decimal = Decimal(string: digits), decimal.description == digits else {
                throw EncodingError.invalidValue(
                    self,
                    EncodingError.Context(
                        codingPath: encoder.codingPath,
                        debugDescription: "the integer \(digits) has more digits than a Decimal holds exactly"))
            }
            try container.encode(decimal)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let elements): try container.encode(elements)
        case .object(let members): try container.encode(members)
        }
    }
}
