extension Option where Value == Duration {
    /// An option whose value is a length of time with a unit: `90s`, `30m`, `12h`, `7d` (a bare number is
    /// seconds), above zero.
    /// - Parameters:
    ///   - default: The value when the option is absent; `nil` when absence means "not given".
    ///   - defaultDescription: How help shows the default (`10s`), which `Duration` would print as `10.0 seconds`.
    public static func duration(
        _ name: String, valueName: String = "<duration>", default: Duration? = nil, defaultDescription: String? = nil,
        help: String
    ) -> Option {
        Option(
            name, valueName: valueName, default: `default`, defaultDescription: defaultDescription,
            expectation: "a duration such as 90s, 30m, 12h or 7d", help: help, convert: QuantityText.duration)
    }
}

extension Option where Value == UInt64 {
    /// An option whose value is a number of bytes with an optional unit: `500K`, `200MB`, `2G`, `1.5GB` (powers of
    /// 1024; a bare number is bytes), above zero.
    public static func byteCount(_ name: String, valueName: String = "<size>", help: String) -> Option {
        Option(
            name, valueName: valueName, expectation: "a size such as 500K, 200MB or 2G", help: help,
            convert: QuantityText.byteCount)
    }
}

extension Option where Value == Int {
    /// An option whose value is a number of bytes with an optional unit, as ``byteCount(_:valueName:help:)`` reads
    /// it, within `range`; errors name the range both with units and in bytes (`from 1K to 16M (1024 to 16777216
    /// bytes)`).
    public static func byteCount(
        _ name: String, valueName: String = "<size>", in range: ClosedRange<Int>, default: Int? = nil, help: String
    ) -> Option {
        let lower = QuantityText.shortByteCount(range.lowerBound)
        let upper = QuantityText.shortByteCount(range.upperBound)
        return Option(
            name, valueName: valueName, default: `default`, defaultDescription: `default`.map(QuantityText.shortByteCount),
            expectation: "a size from \(lower) to \(upper) (\(range.lowerBound) to \(range.upperBound) bytes)", help: help,
            convert: { text in
                QuantityText.byteCount(text).flatMap { $0 <= UInt64(Int.max) && range.contains(Int($0)) ? Int($0) : nil }
            })
    }
}

/// Reads the quantities options take: a number, then a unit.
enum QuantityText {
    /// `90s`, `30m`, `12h`, `7d`, or seconds; `nil` for anything else, zero or less.
    static func duration(_ text: String) -> Duration? {
        let units: [(suffix: String, factor: Double)] = [("s", 1), ("m", 60), ("h", 3600), ("d", 86_400), ("", 1)]
        guard let (number, unit) = split(text, units: units), number > 0 else { return nil }
        return .milliseconds(Int64((number * unit * 1000).rounded()))
    }

    /// `500K`, `200MB`, `2G`, `1.5GB` (powers of 1024), or bytes; `nil` for anything else, zero or less.
    static func byteCount(_ text: String) -> UInt64? {
        let kilo: Double = 1024
        let (mega, giga, tera) = (kilo * kilo, kilo * kilo * kilo, kilo * kilo * kilo * kilo)
        let units: [(suffix: String, factor: Double)] = [
            ("KB", kilo), ("MB", mega), ("GB", giga), ("TB", tera), ("K", kilo), ("M", mega), ("G", giga), ("T", tera),
            ("B", 1), ("", 1),
        ]
        guard let (number, unit) = split(text.uppercased(), units: units), number > 0, number * unit < 1.8e19 else {
            return nil
        }
        return UInt64((number * unit).rounded())
    }

    /// `bytes` with the largest unit that divides it (`16M`, `1K`), or as a bare number.
    static func shortByteCount(_ bytes: Int) -> String {
        for (suffix, shift) in [("G", 30), ("M", 20), ("K", 10)] where bytes != 0 && bytes % (1 << shift) == 0 {
            return "\(bytes >> shift)\(suffix)"
        }
        return "\(bytes)"
    }

    /// The number and the factor of its unit, for the first unit whose suffix `text` has.
    private static func split(_ text: String, units: [(suffix: String, factor: Double)]) -> (Double, Double)? {
        for unit in units where text.hasSuffix(unit.suffix) {
            let digits = text.dropLast(unit.suffix.count)
            guard !digits.isEmpty, digits.allSatisfy({ $0.isNumber || $0 == "." }), let number = Double(digits) else {
                continue
            }
            return (number, unit.factor)
        }
        return nil
    }
}
