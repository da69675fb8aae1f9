/// What a multi-byte UTF-8 sequence must look like after its first byte (Unicode Table 3-7): the one table the
/// parser and the scanner both check strings by.
enum UTF8LeadByte {
    /// The length of the sequence `lead` starts and the range its second byte must fall in (each later byte is
    /// a continuation byte, 0x80...0xBF); `nil` when `lead` starts no valid multi-byte sequence.
    @inline(__always)
    static func sequence(startingWith lead: UInt8) -> (length: Int, second: ClosedRange<UInt8>)? {
        switch lead {
        case 0xC2...0xDF: (2, 0x80...0xBF)
        case 0xE0: (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (3, 0x80...0xBF)
        case 0xED: (3, 0x80...0x9F)
        case 0xF0: (4, 0x90...0xBF)
        case 0xF1...0xF3: (4, 0x80...0xBF)
        case 0xF4: (4, 0x80...0x8F)
        default: nil
        }
    }
}
