import Foundation

/// Decodes any `Decodable` value from a ``JSONValue``, with the same fixed strategies as ``CanonicalJSONEncoder``.
///
/// Failures are the standard `DecodingError`s with an exact `codingPath`; `DecodingError.jsonPath` renders it as
/// `todos[0].isComplete`.
///
/// ```swift
/// let state = try JSONValueDecoder().decode(Todos.State.self, from: recorded)
/// ```
public struct JSONValueDecoder: Sendable {
    /// Creates a decoder.
    public init() {}

    /// Decodes a `T` from `value`.
    /// - Throws: `DecodingError` naming the path and the problem.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try ValueDecoder(value: value, parent: .root, last: nil).decodeValue(type)
    }
}

/// Where a container sits in the decoded value: the keys from the root, made into a `codingPath` only when one is
/// asked for (an error, or a type that reads its path).
private indirect enum CodingPathNode {
    case root
    case key(any CodingKey, parent: CodingPathNode)

    /// The node of `key` under this one; this one when there is no key.
    func appending(_ key: (any CodingKey)?) -> CodingPathNode {
        guard let key else { return self }
        return .key(key, parent: self)
    }

    /// The keys from the root to this node, then `last` when there is one.
    func codingPath(then last: (any CodingKey)? = nil) -> [any CodingKey] {
        var keys: [any CodingKey] = []
        if let last { keys.append(last) }
        var node = self
        while case .key(let key, let parent) = node {
            keys.append(key)
            node = parent
        }
        return keys.reversed()
    }
}

private struct ValueDecoder: Decoder {
    let value: JSONValue
    /// The path of the container holding the value.
    let parent: CodingPathNode
    /// The value's key in that container; `nil` for the root.
    let last: (any CodingKey)?
    var codingPath: [any CodingKey] { parent.codingPath(then: last) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else {
            throw mismatch([String: JSONValue].self, expected: "an object")
        }
        return KeyedDecodingContainer(KeyedValueContainer<Key>(members: members, path: parent.appending(last)))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch([JSONValue].self, expected: "an array") }
        return UnkeyedValueContainer(elements: elements, path: parent.appending(last))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(decoder: self)
    }

    func mismatch(_ type: Any.Type, expected: String) -> DecodingError {
        DecodingError.typeMismatch(
            type, DecodingError.Context(codingPath: codingPath, debugDescription: "expected \(expected), found \(value.typeName)"))
    }

    func corrupted(_ description: String) -> DecodingError {
        DecodingError.dataCorrupted(DecodingError.Context(codingPath: codingPath, debugDescription: description))
    }

    /// Decodes with the fixed strategies and the fast paths for common scalars.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if type == String.self { return try string() as! T }
        if type == Int.self { return try integer(Int.self) as! T }
        if type == Bool.self { return try bool() as! T }
        if type == Double.self { return try double() as! T }
        if type == JSONValue.self { return value as! T }
        if type == Date.self { return Date(timeIntervalSince1970: try double()) as! T }
        if type == UUID.self, case .string(let text) = value, let uuid = Self.uuid(text) { return uuid as! T }
        if type == URL.self {
            guard let url = URL(string: try string()) else { throw corrupted("not a valid URL") }
            return url as! T
        }
        if type == Data.self {
            guard let data = Data(base64Encoded: try string()) else { throw corrupted("not valid Base64") }
            return data as! T
        }
        if type == Decimal.self {
            guard value.doubleValue != nil, let decimal = Decimal(string: value.canonicalString) else {
                throw mismatch(Decimal.self, expected: "a number")
            }
            return decimal as! T
        }
        return try T(from: self)
    }

    /// The UUID `text` writes in its usual form (`8-4-4-4-12` hexadecimal digits of either case), read without
    /// Foundation's `sscanf`; `nil` for any other text, which `UUID(from:)` then reads (or refuses) as always.
    static func uuid(_ text: String) -> UUID? {
        var text = text
        return text.withUTF8 { utf8 -> UUID? in
            guard utf8.count == 36 else { return nil }
            var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            let complete = withUnsafeMutableBytes(of: &bytes) { out -> Bool in
                var position = 0
                for index in 0..<16 {
                    if position == 8 || position == 13 || position == 18 || position == 23 {
                        guard utf8[position] == UInt8(ascii: "-") else { return false }
                        position += 1
                    }
                    guard let high = hexDigit(utf8[position]), let low = hexDigit(utf8[position + 1]) else { return false }
                    out[index] = high << 4 | low
                    position += 2
                }
                return true
            }
            return complete ? UUID(uuid: bytes) : nil
        }
    }

    /// The value of a hexadecimal digit of either case.
    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    func string() throws -> String {
        guard case .string(let string) = value else { throw mismatch(String.self, expected: "a string") }
        return string
    }

    func bool() throws -> Bool {
        guard case .bool(let bool) = value else { throw mismatch(Bool.self, expected: "a boolean") }
        return bool
    }

    func double() throws -> Double {
        guard let number = value.doubleValue else { throw mismatch(Double.self, expected: "a number") }
        return number
    }

    func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        let result: T?
        switch value {
        case .integer(let integer): result = T(exactly: integer)
        case .unsignedInteger(let integer): result = T(exactly: integer)
        case .double(let number): result = T(exactly: number)
        case .bigInteger: result = nil
        default: throw mismatch(type, expected: "an integer")
        }
        guard let result else { throw corrupted("\(value.canonicalString) does not fit in \(T.self)") }
        return result
    }
}

private struct KeyedValueContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    let path: CodingPathNode
    var codingPath: [any CodingKey] { path.codingPath() }

    var allKeys: [Key] {
        var keys: [Key] = []
        keys.reserveCapacity(members.count)
        for name in members.keys {
            if let key = Key(stringValue: name) { keys.append(key) }
        }
        return keys
    }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    private func decoder(for key: Key) throws -> ValueDecoder {
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key, DecodingError.Context(codingPath: codingPath, debugDescription: "missing key '\(key.stringValue)'"))
        }
        return ValueDecoder(value: value, parent: path, last: key)
    }

    func decodeNil(forKey key: Key) throws -> Bool { try decoder(for: key).value == .null }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder(for: key).bool() }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder(for: key).string() }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoder(for: key).double() }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { Float(try decoder(for: key).double()) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder(for: key).integer(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decoder(for: key).integer(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decoder(for: key).integer(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decoder(for: key).integer(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decoder(for: key).integer(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decoder(for: key).integer(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decoder(for: key).integer(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decoder(for: key).integer(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decoder(for: key).integer(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decoder(for: key).integer(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decoder(for: key).decodeValue(type) }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder(for: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder(for: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        ValueDecoder(value: members["super"] ?? .null, parent: path, last: NameKey("super"))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecoder(value: members[key.stringValue] ?? .null, parent: path, last: key)
    }
}

private struct UnkeyedValueContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let path: CodingPathNode
    var codingPath: [any CodingKey] { path.codingPath() }
    var currentIndex = 0

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next(_ type: Any.Type) throws -> ValueDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: path.codingPath(then: IndexKey(intValue: currentIndex)),
                    debugDescription: "the array has only \(elements.count) elements"))
        }
        defer { currentIndex += 1 }
        return ValueDecoder(value: elements[currentIndex], parent: path, last: IndexKey(intValue: currentIndex))
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type).bool() }
    mutating func decode(_ type: String.Type) throws -> String { try next(type).string() }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type).double() }
    mutating func decode(_ type: Float.Type) throws -> Float { Float(try next(type).double()) }
    mutating func decode(_ type: Int.Type) throws -> Int { try next(type).integer(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type).integer(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type).integer(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type).integer(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type).integer(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type).integer(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type).integer(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type).integer(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type).integer(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type).integer(type) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type).decodeValue(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next(type).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next([JSONValue].self).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        try next(JSONValue.self)
    }
}

private struct SingleValueContainer: SingleValueDecodingContainer {
    let decoder: ValueDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.value == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.bool() }
    func decode(_ type: String.Type) throws -> String { try decoder.string() }
    func decode(_ type: Double.Type) throws -> Double { try decoder.double() }
    func decode(_ type: Float.Type) throws -> Float { Float(try decoder.double()) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.integer(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeValue(type) }
}
