/// Word-at-a-time tests on the bytes of JSON strings: eight bytes per step, for the scanner, the parser and the
/// encoders' loops over plain ASCII text.
enum JSONStringBytes {
    /// The 8 bytes at `pointer` as one word, whatever the pointer's alignment.
    @inline(__always)
    static func word(at pointer: UnsafePointer<UInt8>) -> UInt64 {
        UnsafeRawPointer(pointer).loadUnaligned(as: UInt64.self)
    }

    /// Whether any of the 8 bytes in `word` needs a look inside a string: `"`, `\`, below 0x20 or above 0x7F.
    @inline(__always)
    static func hasSpecialByte(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & highs != 0 }
        let belowSpace = (word &- 0x20 &* ones) & ~word & highs
        return word & highs != 0 || belowSpace != 0 || hasZeroByte(word ^ (0x22 &* ones))
            || hasZeroByte(word ^ (0x5C &* ones))
    }
}
