/// Which case an enum value is, read from the enum's value witness table: the one place the recorder reads the
/// Swift runtime's layout by hand.
///
/// Every enum's type metadata points, one word before it, to its value witness table; an enum's table carries,
/// after the common witnesses, its size, stride, flags and extra inhabitant count, the `getEnumTag` witness, which
/// returns the case's index. That layout is part of Swift's stable ABI (on Darwin and Linux alike), and the flags
/// say whether the table has the enum witnesses; a type whose table does not is not read.
enum EnumCaseTag {
    /// The index of `value`'s case, when `T` is an enum whose values are plain data (no reference, string,
    /// collection or existential in any case: `_isPOD`), so that its case's payload has one type, of plain data
    /// too; `nil` for any other type.
    static func of<T>(_ value: T) -> UInt32? {
        guard _isPOD(T.self), let getEnumTag = Self.getEnumTag(of: T.self) else { return nil }
        let metadata = unsafeBitCast(T.self, to: UnsafeRawPointer.self)
        return withUnsafePointer(to: value) { getEnumTag(UnsafeRawPointer($0), metadata) }
    }

    private typealias GetEnumTag = @convention(c) (UnsafeRawPointer, UnsafeRawPointer) -> UInt32

    /// The `getEnumTag` witness of `type`, or `nil` when its value witness table has no enum witnesses.
    private static func getEnumTag(of type: Any.Type) -> GetEnumTag? {
        let word = MemoryLayout<UnsafeRawPointer>.size
        let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
        // Only enums and optionals (metadata kinds 0x201 and 0x202) have the enum witnesses.
        let kind = metadata.load(as: UInt.self)
        guard kind == 0x201 || kind == 0x202 else { return nil }
        let witnesses = metadata.load(fromByteOffset: -word, as: UnsafeRawPointer.self)
        // Eight witnesses, then size and stride, then the flags.
        let flags = witnesses.load(fromByteOffset: 10 * word, as: UInt32.self)
        let hasEnumWitnesses: UInt32 = 0x0020_0000
        guard flags & hasEnumWitnesses != 0 else { return nil }
        // After the flags, the extra inhabitant count (4 bytes), then `getEnumTag`.
        let witness = witnesses.load(fromByteOffset: 10 * word + 8, as: UnsafeRawPointer.self)
        return unsafeBitCast(witness, to: GetEnumTag.self)
    }
}
