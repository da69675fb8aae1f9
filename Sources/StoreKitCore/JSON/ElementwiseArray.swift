/// An `Array`, which the byte writer writes element by element itself instead of through `Array`'s
/// `encode(to:)`: the same bytes (that method writes each element to an unkeyed container, in order), without an
/// unkeyed container boxed in an existential and called through protocol witnesses for every element.
protocol ElementwiseArray {
    /// Writes the array at `array` (of this type) with `writer`, as ``CanonicalByteWriter/writeElements(_:)`` does.
    static func writeElements(of array: UnsafeRawPointer, with writer: CanonicalByteWriter) throws
}

extension Array: ElementwiseArray where Element: Encodable {
    static func writeElements(of array: UnsafeRawPointer, with writer: CanonicalByteWriter) throws {
        try writer.writeElements(array.assumingMemoryBound(to: [Element].self).pointee)
    }
}
