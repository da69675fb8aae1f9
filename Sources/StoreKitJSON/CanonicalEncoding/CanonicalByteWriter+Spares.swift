import StoreKitSystem

/// Writers kept between encodings that have no memo (an action, a value encoded once), so each does not start
/// cold: a new writer allocates its buffers and tables, checks every type's conformances again and learns every
/// key order again. A writer is taken by one encoding at a time and given back after it.
extension CanonicalByteWriter {
    /// At most this many writers are kept.
    private static let spareLimit = 8
    /// A writer whose buffers grew beyond this many bytes is let go, so a large value does not keep its memory.
    private static let spareBufferLimit = 1 << 16

    private static let spares = Locked<[CanonicalByteWriter]>([])

    /// A kept writer, or a new one; its type notes are empty.
    static func takeSpareWriter() -> CanonicalByteWriter {
        guard let writer = spares.withLock({ $0.popLast() }) else { return CanonicalByteWriter() }
        writer.forgetTypeNotes()
        return writer
    }

    /// Keeps `writer` for a later encoding, unless enough are kept or its buffers grew large.
    static func keepSpare(_ writer: CanonicalByteWriter) {
        guard !writer.notesForReading, writer.heldBytes <= spareBufferLimit else { return }
        spares.withLock { if $0.count < spareLimit { $0.append(writer) } }
    }
}
