/// A `Double` that reads as a short decimal: a whole number below 2^53, or one with at most three digits after
/// the point between 0.001 and a billion, like most prices, ratios and counts in an app's state.
///
/// Such a number is written straight from its digits, giving exactly the text `Double.description` gives (with
/// `.0` after a whole number), without the general shortest-digits algorithm. In that range a double is fine
/// grained enough that only one decimal with that many digits after the point rounds to it, so the fewest
/// digits that read back as the same double are found by trying one, two and three.
struct ShortDecimal {
    let isNegative: Bool
    /// The magnitude times 10^`fractionDigits`.
    let scaledMagnitude: UInt64
    let fractionDigits: Int

    /// The decimal form of `value`, or `nil` when it is not a short decimal (or is -0.0, which keeps its sign
    /// through the general path).
    init?(_ value: Double) {
        guard value.isFinite, !(value == 0 && value.sign == .minus) else { return nil }
        let magnitude = value.magnitude
        if magnitude < 9_007_199_254_740_992, magnitude.rounded(.towardZero) == magnitude {
            scaledMagnitude = UInt64(magnitude)
            fractionDigits = 0
        } else if magnitude >= 0.001, magnitude < 1e9,
            let (scaled, digits) = Self.fewestFractionDigits(magnitude)
        {
            scaledMagnitude = scaled
            fractionDigits = digits
        } else {
            return nil
        }
        isNegative = value < 0
    }

    private static func fewestFractionDigits(_ magnitude: Double) -> (UInt64, Int)? {
        var scale = 1.0
        for digits in 1...3 {
            scale *= 10
            let scaled = (magnitude * scale).rounded()
            // Both operands are exact, so the division rounds once, as reading the decimal text would.
            if scaled / scale == magnitude { return (UInt64(scaled), digits) }
        }
        return nil
    }

    /// Calls `body` with the number's text as UTF-8.
    func withUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
            var position = buffer.count
            func write(_ byte: UInt8) {
                position -= 1
                buffer[position] = byte
            }
            var rest = scaledMagnitude
            if fractionDigits == 0 {
                write(UInt8(ascii: "0"))
            } else {
                for _ in 0..<fractionDigits {
                    write(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10))
                    rest /= 10
                }
            }
            write(UInt8(ascii: "."))
            repeat {
                write(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10))
                rest /= 10
            } while rest > 0
            if isNegative { write(UInt8(ascii: "-")) }
            return body(UnsafeBufferPointer(rebasing: buffer[position...]))
        }
    }
}

extension JSONValue {
    /// Calls `body` with the canonical text of `value` (finite) as UTF-8: a short decimal written from its
    /// digits, anything else through ``canonicalNumber(_:)``.
    static func withCanonicalNumber<Result>(
        _ value: Double, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        if let decimal = ShortDecimal(value) { return decimal.withUTF8(body) }
        var text = canonicalNumber(value)
        return text.withUTF8(body)
    }
}
