/// Exact conversion of short decimals to `Double` without text: Clinger's fast path.
///
/// A decimal `significand × 10^exponent` whose significand is at most 2^53 and whose exponent is within ±22 is
/// two doubles that are exact (every integer up to 2^53 is, and so is every power of ten up to 10^22), so one
/// multiplication or division, which IEEE 754 rounds correctly, gives the correctly rounded result: the same
/// `Double` as parsing the decimal's text.
package enum DecimalFastPath {
    /// The powers of ten that are exact doubles, 10^0 through 10^22.
    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// The correctly rounded `Double` nearest `significand × 10^exponent`, or `nil` when the fast path does not
    /// apply (the significand above 2^53 or the exponent outside ±22) and the caller must convert another way.
    @inline(__always)
    static func double(significand: UInt64, exponent: Int) -> Double? {
        guard significand <= 1 << 53, exponent >= -22, exponent <= 22 else { return nil }
        let value = Double(significand)
        return exponent < 0 ? value / exactPowersOfTen[-exponent] : value * exactPowersOfTen[exponent]
    }

    /// The `Double` a JSON number's text stands for, when it is a plain decimal short enough for the fast path
    /// (an optional `-`, at most 19 digits with or without a fraction, no exponent); `nil` otherwise.
    package static func double(plainDecimal text: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        let negative = text.first == UInt8(ascii: "-")
        if negative { index = 1 }
        var significand: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        var inFraction = false
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: "."), !inFraction {
                inFraction = true
            } else if byte &- UInt8(ascii: "0") < 10 {
                significand = significand &* 10 &+ UInt64(byte &- UInt8(ascii: "0"))
                digits += 1
                if inFraction { fractionDigits += 1 }
            } else {
                return nil
            }
            index += 1
        }
        guard digits > 0, digits <= 19, let magnitude = double(significand: significand, exponent: -fractionDigits) else {
            return nil
        }
        return negative ? -magnitude : magnitude
    }
}
