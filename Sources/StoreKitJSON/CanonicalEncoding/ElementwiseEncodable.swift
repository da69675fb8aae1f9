/// A collection that the byte writer writes element by element itself instead of through its own `encode(to:)`,
/// without an unkeyed container boxed in an existential and called through protocol witnesses for every element:
/// an `Array` (the same bytes: its `encode(to:)` writes each element in order), a `Set` (its elements sorted by
/// their canonical bytes, as ``UnorderedEncodable`` has it) and a dictionary written as keyed pairs (its pairs
/// sorted by their keys' canonical bytes, as ``PairEncodedDictionary`` has it).
protocol ElementwiseEncodable {
    /// Writes the collection at `collection` (of this type) with `writer`.
    static func writeElements(of collection: UnsafeRawPointer, with writer: CanonicalByteWriter) throws
}

extension Array: ElementwiseEncodable where Element: Encodable {
    static func writeElements(of collection: UnsafeRawPointer, with writer: CanonicalByteWriter) throws {
        try writer.writeElements(collection.assumingMemoryBound(to: [Element].self).pointee)
    }
}

extension Set: ElementwiseEncodable where Element: Encodable {
    static func writeElements(of collection: UnsafeRawPointer, with writer: CanonicalByteWriter) throws {
        try writer.writeSortedElements(collection.assumingMemoryBound(to: Set<Element>.self).pointee)
    }
}

extension Dictionary: ElementwiseEncodable where Key: Encodable, Value: Encodable {
    static func writeElements(of collection: UnsafeRawPointer, with writer: CanonicalByteWriter) throws {
        try writer.writeSortedPairs(collection.assumingMemoryBound(to: [Key: Value].self).pointee)
    }
}
