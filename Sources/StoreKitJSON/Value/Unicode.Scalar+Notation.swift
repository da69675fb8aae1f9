extension Unicode.Scalar {
    /// The code point as Unicode writes it, with at least four hex digits: `U+0301`, `U+1F600`.
    package var notation: String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
