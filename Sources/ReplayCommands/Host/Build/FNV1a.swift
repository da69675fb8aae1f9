/// The 64-bit FNV-1a hash: quick, and spread well enough to name a file after a command or to tell two
/// environments apart (it is no defence against someone crafting a collision, which nothing here needs).
enum FNV1a {
    /// The hash of `text`'s UTF-8 bytes.
    static func hash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// The hash of `text`'s UTF-8 bytes, as 16 hexadecimal digits.
    static func hexadecimal(_ text: String) -> String {
        let digits = String(hash(text), radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
