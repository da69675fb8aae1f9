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
