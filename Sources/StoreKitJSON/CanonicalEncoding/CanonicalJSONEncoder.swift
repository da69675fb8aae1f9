import Foundation

/// Encodes any `Encodable` value into a ``JSONValue`` with fixed strategies, so equal values give equal
/// canonical bytes (see ``JSONValue/canonicalBytes()``).
///
/// Strategies: `Date` as seconds since 1970 (a double), `Data` as Base64, `URL` as its absolute string, `Decimal`
/// as a number, a ``JSONValue`` as itself, a `Set` with its elements sorted by their canonical bytes, and a
/// dictionary that `Codable` writes as alternating keys and values (keys neither `String`, `Int` nor
/// `CodingKeyRepresentable`) with its pairs sorted by their keys' canonical bytes (see ``EncodedTypeNotes``). NaN
/// and infinities throw `EncodingError.invalidValue` naming the path.
///
/// ```swift
/// let bytes = try CanonicalJSONEncoder().encodeToBytes(store.state)
/// ```
public struct CanonicalJSONEncoder: Sendable {
    /// Creates an encoder.
    public init() {}

    /// Encodes `value` as a ``JSONValue``.
    /// - Throws: `EncodingError.invalidValue` for a non-finite number, or what the value's `encode(to:)` throws.
    public func encode(_ value: some Encodable) throws -> JSONValue {
        try EncodingNode.encode(value, codingPath: [], notes: TypeNoteTaker(notesForReading: false))
    }

    /// Encodes `value` as canonical JSON bytes.
    /// - Throws: Like ``encode(_:)``.
    public func encodeToBytes(_ value: some Encodable) throws -> [UInt8] {
        try encodeToBytes(value, reusing: nil)
    }

    /// Encodes `value` as canonical JSON bytes, copying the bytes of the parts unchanged since the last value
    /// encoded with `memo` (see ``EncodingMemo`` for what "unchanged" can and cannot see).
    /// - Throws: Like ``encode(_:)``.
    package func encodeToBytes(_ value: some Encodable, reusing memo: EncodingMemo?) throws -> [UInt8] {
        if let bytes = try? CanonicalByteWriter.encode(value, memo: memo) { return bytes }
        let notes = TypeNoteTaker(notesForReading: memo?.writer.notesForReading ?? false)
        let bytes = try EncodingNode.encode(value, codingPath: [], notes: notes).canonicalBytes()
        memo?.writer.note(notes.notes)
        return bytes
    }

    /// Encodes `value` as canonical JSON bytes, and adds to `typeNotes` where they hold dictionaries written as
    /// keyed pairs, dates, durations and sets, for ``StateDiff`` to compare and show them as the Swift values they
    /// are, and which member holds the id of the `Identifiable` elements of each array where it is not `id` (a todo's
    /// `toDoID`), for ``StateDiff`` to match them by it. The bytes are the same as ``encodeToBytes(_:)``'s.
    ///
    /// - Throws: Like ``encode(_:)``.
    public func encodeToBytes(_ value: some Encodable, typeNotes: inout EncodedTypeNotes) throws -> [UInt8] {
        let writer = CanonicalByteWriter(notesForReading: true)
        guard let bytes = try? CanonicalByteWriter.encode(value, writer: writer, memo: nil) else {
            let notes = TypeNoteTaker(notesForReading: true)
            let bytes = try EncodingNode.encode(value, codingPath: [], notes: notes).canonicalBytes()
            typeNotes.formUnion(notes.notes)
            return bytes
        }
        typeNotes.formUnion(writer.typeNotes)
        return bytes
    }
}

/// Where the tree encoder met dictionaries written as keyed pairs, dates, durations and sets, and the identity
/// members of arrays of `Identifiable` elements.
final class TypeNoteTaker {
    var notes = EncodedTypeNotes()
    /// Whether identity members are searched for, as the byte writer's ``CanonicalByteWriter/notesForReading``
    /// has it.
    let notesForReading: Bool
    private var identifiedTypes = IdentityMemberSearch.ElementTypes()
    private var identitySearches: [[EncodedTypeNotes.Step]: IdentityMemberSearch] = [:]
    private var identitySearchesEnded: Set<[EncodedTypeNotes.Step]> = []

    init(notesForReading: Bool) {
        self.notesForReading = notesForReading
    }

    /// Notes a place of `kind` at `codingPath`, and the places `inside` it (for a keyed-pair array, inside its
    /// pairs' values).
    func note(_ kind: EncodedTypeNotes.Kind, at codingPath: [any CodingKey], inside: EncodedTypeNotes = EncodedTypeNotes()) {
        let path = Self.path(of: codingPath)
        notes.insert(path, as: kind)
        notes.formUnion(inside, below: path + [.pairValue])
    }

    /// Narrows the search for the identity member of the arrays at `codingPath` with `element`, one of their
    /// elements, encoded as `encoded` (see ``IdentityMemberSearch``), and notes the member when it ends with one.
    func examine<Element: Encodable>(_ element: Element, encoded: JSONValue, inArrayAt codingPath: [any CodingKey]) {
        guard notesForReading, identifiedTypes.looksInto(Element.self) else { return }
        let path = Self.path(of: codingPath)
        guard !identitySearchesEnded.contains(path),
            case .ended(let member) = IdentityMemberSearch.examine(element, encoded: encoded, at: path, in: &identitySearches)
        else { return }
        identitySearchesEnded.insert(path)
        if let member { notes.identityKeys[path] = member }
    }

    /// `codingPath` generalised: every index is any element.
    private static func path(of codingPath: [any CodingKey]) -> [EncodedTypeNotes.Step] {
        codingPath.map { key in key is IndexKey ? .element : .member(key.stringValue) }
    }
}

/// One value under construction: a scalar, an object or an array whose members are still being filled.
private final class EncodingNode {
    var scalar: JSONValue?
    var members: [String: EncodingNode]?
    var elements: [EncodingNode]?

    init(scalar: JSONValue? = nil) {
        self.scalar = scalar
    }

    var value: JSONValue {
        if let scalar { return scalar }
        if let elements { return .array(elements.map(\.value)) }
        if let members { return .object(members.mapValues(\.value)) }
        return .object([:])
    }

    /// Encodes `value`, taking the fixed strategies and the fast paths for common scalars.
    static func encode(_ value: some Encodable, codingPath: [any CodingKey], notes: TypeNoteTaker) throws -> JSONValue {
        switch value {
        case let string as String: return .string(string)
        case let integer as Int: return .integer(Int64(integer))
        case let bool as Bool: return .bool(bool)
        case let double as Double: return try number(double, codingPath: codingPath)
        case let json as JSONValue: return json
        case let date as Date:
            notes.note(.dates, at: codingPath)
            return try number(date.timeIntervalSince1970, codingPath: codingPath)
        case let data as Data: return .string(data.base64EncodedString())
        case let url as URL: return .string(url.absoluteString)
        case let decimal as Decimal:
            return (try? JSONValue(parsing: decimal.description)) ?? .string(decimal.description)
        case let unordered as any UnorderedEncodable:
            notes.note(.sets, at: codingPath)
            return .array(try unordered.sortedCanonicalElements().map { try JSONValue(parsing: $0) })
        case let dictionary as any PairEncodedDictionary where type(of: dictionary).encodesAsPairs:
            var inside = EncodedTypeNotes()
            let pairs = try dictionary.sortedCanonicalPairs(inside: &inside)
            notes.note(.keyedPairArrays, at: codingPath, inside: inside)
            return .array(try pairs.flatMap { [try JSONValue(parsing: $0.key), try JSONValue(parsing: $0.value)] })
        case is Duration:
            // Its own `Codable` (`[high, low]`), noted so that a diff compares and shows it as one value.
            notes.note(.durations, at: codingPath)
            let node = EncodingNode()
            try value.encode(to: NodeEncoder(node: node, codingPath: codingPath, notes: notes))
            return node.value
        default:
            let node = EncodingNode()
            try value.encode(to: NodeEncoder(node: node, codingPath: codingPath, notes: notes))
            return node.value
        }
    }

    static func number(_ value: Double, codingPath: [any CodingKey]) throws -> JSONValue {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: codingPath, debugDescription: "\(value) is not a JSON number"))
        }
        return .double(value)
    }

    static func integer<T: BinaryInteger>(_ value: T) -> JSONValue {
        if let small = Int64(exactly: value) { return .integer(small) }
        return .unsignedInteger(UInt64(value))
    }

    static func float(_ value: Float, codingPath: [any CodingKey]) throws -> JSONValue {
        guard value.isFinite else { return try number(Double(value), codingPath: codingPath) }
        // Through the shortest decimal text, so 0.1 as a Float encodes as 0.1, not 0.10000000149011612.
        return .double(Double(value.description) ?? Double(value))
    }
}

private struct NodeEncoder: Encoder {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    let notes: TypeNoteTaker
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if node.members == nil {
            node.members = [:]
            node.scalar = nil
            node.elements = nil
        }
        return KeyedEncodingContainer(KeyedNodeContainer<Key>(node: node, codingPath: codingPath, notes: notes))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if node.elements == nil {
            node.elements = []
            node.scalar = nil
            node.members = nil
        }
        return UnkeyedNodeContainer(node: node, codingPath: codingPath, notes: notes)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleNodeContainer(node: node, codingPath: codingPath, notes: notes)
    }
}

private struct KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    let notes: TypeNoteTaker

    private func set(_ value: JSONValue, _ key: Key) {
        node.members![key.stringValue] = EncodingNode(scalar: value)
    }

    mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        set(try EncodingNode.number(value, codingPath: codingPath + [key]), key)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        set(try EncodingNode.float(value, codingPath: codingPath + [key]), key)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(EncodingNode.integer(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(EncodingNode.integer(value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(EncodingNode.integer(value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(EncodingNode.integer(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(EncodingNode.integer(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(EncodingNode.integer(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(EncodingNode.integer(value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(EncodingNode.integer(value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(EncodingNode.integer(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(EncodingNode.integer(value), key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        set(try EncodingNode.encode(value, codingPath: codingPath + [key], notes: notes), key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let child = EncodingNode()
        node.members![key.stringValue] = child
        return NodeEncoder(node: child, codingPath: codingPath + [key], notes: notes).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = EncodingNode()
        node.members![key.stringValue] = child
        return NodeEncoder(node: child, codingPath: codingPath + [key], notes: notes).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        superEncoder(at: NameKey("super"))
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        superEncoder(at: key)
    }

    private func superEncoder(at key: any CodingKey) -> any Encoder {
        let child = EncodingNode()
        node.members![key.stringValue] = child
        return NodeEncoder(node: child, codingPath: codingPath + [key], notes: notes)
    }
}

private struct UnkeyedNodeContainer: UnkeyedEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    let notes: TypeNoteTaker
    var count: Int { node.elements!.count }

    private var nextKey: any CodingKey { IndexKey(intValue: count) }

    private func append(_ value: JSONValue) {
        node.elements!.append(EncodingNode(scalar: value))
    }

    mutating func encodeNil() throws { append(.null) }
    mutating func encode(_ value: Bool) throws { append(.bool(value)) }
    mutating func encode(_ value: String) throws { append(.string(value)) }
    mutating func encode(_ value: Double) throws {
        append(try EncodingNode.number(value, codingPath: codingPath + [nextKey]))
    }
    mutating func encode(_ value: Float) throws {
        append(try EncodingNode.float(value, codingPath: codingPath + [nextKey]))
    }
    mutating func encode(_ value: Int) throws { append(EncodingNode.integer(value)) }
    mutating func encode(_ value: Int8) throws { append(EncodingNode.integer(value)) }
    mutating func encode(_ value: Int16) throws { append(EncodingNode.integer(value)) }
    mutating func encode(_ value: Int32) throws { append(EncodingNode.integer(value)) }
    mutating func encode(_ value: Int64) throws { append(EncodingNode.integer(value)) }
    mutating func encode(_ value: UInt) throws { append(EncodingNode.integer(value)) }
    mutating func encode(_ value: UInt8) throws { append(EncodingNode.integer(value)) }
    mutating func encode(_ value: UInt16) throws { append(EncodingNode.integer(value)) }
    mutating func encode(_ value: UInt32) throws { append(EncodingNode.integer(value)) }
    mutating func encode(_ value: UInt64) throws { append(EncodingNode.integer(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        let encoded = try EncodingNode.encode(value, codingPath: codingPath + [nextKey], notes: notes)
        notes.examine(value, encoded: encoded, inArrayAt: codingPath)
        append(encoded)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let key = nextKey
        let child = EncodingNode()
        node.elements!.append(child)
        return NodeEncoder(node: child, codingPath: codingPath + [key], notes: notes).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let key = nextKey
        let child = EncodingNode()
        node.elements!.append(child)
        return NodeEncoder(node: child, codingPath: codingPath + [key], notes: notes).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let key = nextKey
        let child = EncodingNode()
        node.elements!.append(child)
        return NodeEncoder(node: child, codingPath: codingPath + [key], notes: notes)
    }
}

private struct SingleNodeContainer: SingleValueEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    let notes: TypeNoteTaker

    private func set(_ value: JSONValue) {
        node.scalar = value
        node.members = nil
        node.elements = nil
    }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.bool(value)) }
    mutating func encode(_ value: String) throws { set(.string(value)) }
    mutating func encode(_ value: Double) throws { set(try EncodingNode.number(value, codingPath: codingPath)) }
    mutating func encode(_ value: Float) throws { set(try EncodingNode.float(value, codingPath: codingPath)) }
    mutating func encode(_ value: Int) throws { set(EncodingNode.integer(value)) }
    mutating func encode(_ value: Int8) throws { set(EncodingNode.integer(value)) }
    mutating func encode(_ value: Int16) throws { set(EncodingNode.integer(value)) }
    mutating func encode(_ value: Int32) throws { set(EncodingNode.integer(value)) }
    mutating func encode(_ value: Int64) throws { set(EncodingNode.integer(value)) }
    mutating func encode(_ value: UInt) throws { set(EncodingNode.integer(value)) }
    mutating func encode(_ value: UInt8) throws { set(EncodingNode.integer(value)) }
    mutating func encode(_ value: UInt16) throws { set(EncodingNode.integer(value)) }
    mutating func encode(_ value: UInt32) throws { set(EncodingNode.integer(value)) }
    mutating func encode(_ value: UInt64) throws { set(EncodingNode.integer(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        set(try EncodingNode.encode(value, codingPath: codingPath, notes: notes))
    }
}
