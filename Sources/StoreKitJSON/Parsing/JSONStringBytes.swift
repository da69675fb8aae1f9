/// Word-at-a-time tests on the bytes of JSON strings: eight bytes per step, for the scanner, the parser and the
/// encoders' loops over plain ASCII text.
package enum JSONStringBytes {
    /// The 8 bytes at `pointer` as one word, whatever the pointer's alignment.
    @inlinable @inline(__always)
    package static func word(at pointer: UnsafePointer<UInt8>) -> UInt64 {
        UnsafeRawPointer(pointer).loadUnaligned(as: UInt64.self)
    }

    /// Whether any of the 8 bytes in `word` needs a look inside a string: `"`, `\`, below 0x20 or above 0x7F.
    @inlinable @inline(__always)
    package static func hasSpecialByte(_ word: UInt64) -> Bool {
        specialBytes(in: word) != 0
    }

    /// The high bit of each byte of `word` (read little-endian) that needs a look inside a string: `"`, `\`,
    /// below 0x20 or above 0x7F. Bits above the lowest one set may be false alarms, but the lowest one is exact,
    /// so `trailingZeroBitCount / 8` is the offset of the first such byte.
    @inlinable @inline(__always)
    package static func specialBytes(in word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        // With no borrow coming in, (byte XOR `"`) - 1 has its high bit set when the byte is `"`, and otherwise only
        // when the byte is above 0x7F; likewise for `\`; byte - 0x20 when the byte is below 0x20, and otherwise only
        // above 0x9F; and `word` itself flags every byte above 0x7F. Borrows start only at flagged bytes and run
        // upwards, so up to the first flagged byte there are none.
        let quotes = (word ^ (0x22 &* ones)) &- ones
        let backslashes = (word ^ (0x5C &* ones)) &- ones
        let controls = word &- 0x20 &* ones
        return (quotes | backslashes | controls | word) & highs
    }

    /// Whether `byte` may stand as it is inside a string: ASCII, neither `"`, `\` nor a control character.
    @inlinable @inline(__always)
    package static func isPlain(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte < 0x80 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
    }
}
