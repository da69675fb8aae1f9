/// A collection whose encoded order is not part of its value, such as a `Set`, which encodes its elements in an
/// order that differs from process to process.
///
/// The canonical encoders write such a collection's elements sorted by their canonical bytes, so equal sets are
/// equal bytes in every process, and two recordings of the same state compare equal without the app's types.
protocol UnorderedEncodable {
    /// The canonical bytes of each element, in ascending byte order.
    func sortedCanonicalElements() throws -> [[UInt8]]
}

extension Set: UnorderedEncodable where Element: Encodable {
    func sortedCanonicalElements() throws -> [[UInt8]] {
        let encoder = CanonicalJSONEncoder()
        return try map { try encoder.encodeToBytes($0) }.sorted { $0.lexicographicallyPrecedes($1) }
    }
}

/// A dictionary that `Codable` may write as an array of alternating keys and values, in hash order, which differs
/// from process to process: one whose keys are neither `String`, `Int` nor `CodingKeyRepresentable`.
///
/// The canonical encoders write such a dictionary's pairs sorted by their keys' canonical bytes (still as the
/// alternating array, which `Dictionary` decodes in any order), and note where it was in an ``EncodedTypeNotes``.
protocol PairEncodedDictionary {
    /// Whether this dictionary type is written as alternating keys and values (decided as `Dictionary` decides).
    static var encodesAsPairs: Bool { get }

    /// The canonical bytes of each key and of its value, sorted by the key's bytes; the keyed-pair arrays inside
    /// the values are added to `inside`, relative to a pair's value.
    func sortedCanonicalPairs(inside: inout EncodedTypeNotes) throws -> [(key: [UInt8], value: [UInt8])]
}

extension Dictionary: PairEncodedDictionary where Key: Encodable, Value: Encodable {
    static var encodesAsPairs: Bool {
        Key.self != String.self && Key.self != Int.self && !(Key.self is any CodingKeyRepresentable.Type)
    }

    func sortedCanonicalPairs(inside: inout EncodedTypeNotes) throws -> [(key: [UInt8], value: [UInt8])] {
        let encoder = CanonicalJSONEncoder()
        let pairs = try map { key, value in
            (key: try encoder.encodeToBytes(key), value: try encoder.encodeToBytes(value, typeNotes: &inside))
        }
        return pairs.sorted { $0.key.lexicographicallyPrecedes($1.key) }
    }
}
