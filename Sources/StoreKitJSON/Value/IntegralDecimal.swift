/// The exact integer a JSON number's text stands for, whatever its spelling: `9007199254740993.0`,
/// `90071992547409930e-1` and `9.007199254740993e15` all stand for `9007199254740993`.
///
/// A `Double` holds every integer only up to 2^53; beyond, the parser reads a number with a fraction or an exponent
/// whose value is an integer by these digits, so that its value is exact, as an integer's without them is.
package enum IntegralDecimal {
    /// The canonical digits of the integer that `text`, a valid JSON number, stands for: an optional `-`, then
    /// digits without leading zeros (`0` for zero, without a sign). `nil` when its value is not an integer.
    package static func digits(of text: some Collection<UInt8>) -> String? {
        var significant: [UInt8] = []
        var fractionDigits = 0
        var exponent = 0
        var negative = false
        var part = Part.integer
        var negativeExponent = false
        for byte in text {
            switch byte {
            case UInt8(ascii: "-") where part == .exponent: negativeExponent = true
            case UInt8(ascii: "-"): negative = true
            case UInt8(ascii: "+"): break
            case UInt8(ascii: "."): part = .fraction
            case UInt8(ascii: "e"), UInt8(ascii: "E"): part = .exponent
            case _ where part == .exponent:
                // Saturates far beyond any exponent of a finite double, whatever the count of fraction digits.
                if exponent < 1 << 48 { exponent = exponent * 10 + Int(byte &- UInt8(ascii: "0")) }
            default:
                if part == .fraction { fractionDigits += 1 }
                if !significant.isEmpty || byte != UInt8(ascii: "0") { significant.append(byte) }
            }
        }
        guard let lastNonZero = significant.lastIndex(where: { $0 != UInt8(ascii: "0") }) else { return "0" }
        let trailingZeros = significant.count - 1 - lastNonZero
        let powerOfTen = (negativeExponent ? -exponent : exponent) - fractionDigits + trailingZeros
        guard powerOfTen >= 0 else { return nil }
        let digits = significant[...lastNonZero] + repeatElement(UInt8(ascii: "0"), count: powerOfTen)
        return (negative ? "-" : "") + String(decoding: digits, as: UTF8.self)
    }

    /// The digits of the integer a whole `Double`'s canonical text stands for (see ``JSONValue``'s canonical
    /// form): its own value up to 2^53, and beyond, the shortest decimal that reads back as it (`1e+23`, not the
    /// double's binary value `99999999999999991611392`).
    package static func digits(ofWhole value: Double) -> String {
        if value.magnitude < 0x1p53 { return String(Int64(value)) }
        // The text has at most 17 significant digits and 16 or more before the point: it has no fraction.
        return digits(of: JSONValue.canonicalNumber(value).utf8)!
    }

    private enum Part {
        case integer
        case fraction
        case exponent
    }
}

extension JSONValue {
    /// The integer with canonical `digits` (see ``IntegralDecimal/digits(of:)``) as the kind that holds it:
    /// ``integer(_:)``, ``unsignedInteger(_:)``, or beyond both ``bigInteger(_:)``.
    init(integerDigits digits: String) {
        if let small = Int64(digits) {
            self = .integer(small)
        } else if let large = UInt64(digits) {
            self = .unsignedInteger(large)
        } else {
            self = .bigInteger(digits)
        }
    }
}
