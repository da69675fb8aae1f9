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
        // Conversions to integers truncate in one instruction, where `rounded` may call the C library.
        if magnitude < 9_007_199_254_740_992, Double(UInt64(magnitude)) == magnitude {
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
            // The nearest whole number (the sum may round only next to a half, where no candidate reads back).
            let scaled = UInt64(magnitude * scale + 0.5)
            // Both operands are exact, so the division rounds once, as reading the decimal text would.
            if Double(scaled) / scale == magnitude { return (scaled, digits) }
        }
        return nil
    }

    /// How many bytes the number's text has.
    var utf8Count: Int {
        var digitCount = 1
        var rest = scaledMagnitude
        while rest >= 10 {
            rest /= 10
            digitCount += 1
        }
        // A whole number gets `.0`; any other has at least one digit before the point.
        let textDigits = fractionDigits == 0 ? digitCount + 1 : max(digitCount, fractionDigits + 1)
        return textDigits + 1 + (isNegative ? 1 : 0)
    }

    /// Writes the number's text into the ``utf8Count`` bytes that end just before `end`, last byte first.
    func write(endingAt end: UnsafeMutablePointer<UInt8>) {
        var position = end
        func write(_ byte: UInt8) {
            position -= 1
            position.pointee = byte
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
    }

    /// Calls `body` with the number's text as UTF-8.
    func withUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let count = utf8Count
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { buffer in
            write(endingAt: buffer.baseAddress! + count)
            return body(UnsafeBufferPointer(rebasing: buffer[..<count]))
        }
    }
}

extension JSONValue {
    /// Calls `body` with the canonical text of `value` (finite) as UTF-8: a short decimal written from its
    /// digits, anything else through ``canonicalNumber(_:)``.
    package static func withCanonicalNumber<Result>(
        _ value: Double, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        if let decimal = ShortDecimal(value) { return decimal.withUTF8(body) }
        var text = canonicalNumber(value)
        return text.withUTF8(body)
    }
}
