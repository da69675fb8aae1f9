import StoreKitCore
import StoreKitJSON

/// How the text of a diff shows a value whose Swift type its JSON does not say (see ``EncodedTypeNotes``): a
/// `Date` as ISO 8601 in UTC with milliseconds (`2026-11-23T10:00:00.000Z`), a `Duration` in seconds (`12.5 s`).
enum ReadableValue {
    /// The readable text of `value` noted as `kind`; `nil` for other kinds, or a value not of the form `kind` writes.
    static func text(of value: JSONValue, as kind: EncodedTypeNotes.Kind?) -> String? {
        switch kind {
        case .dates?: iso8601(value)
        case .durations?: seconds(value)
        case .keyedPairArrays?, .sets?, nil: nil
        }
    }

    /// Seconds since 1970 as `2026-11-23T10:00:00.000Z`, rounded to the millisecond; `nil` for a value that is not
    /// a number or lies beyond the years 0000–9999.
    static func iso8601(_ value: JSONValue) -> String? {
        let seconds: Double
        switch value {
        case .double(let double): seconds = double
        case .integer(let integer): seconds = Double(integer)
        default: return nil
        }
        // 0000-01-01 and 10000-01-01, in seconds since 1970.
        guard seconds >= -62_167_219_200, seconds < 253_402_300_800 else { return nil }
        let milliseconds = Int64((seconds * 1000).rounded())
        let dayLength: Int64 = 86_400_000
        let days = milliseconds >= 0 ? milliseconds / dayLength : (milliseconds - dayLength + 1) / dayLength
        let ofDay = milliseconds - days * dayLength
        let (year, month, day) = civilDate(daysSince1970: days)
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))T\(padded(ofDay / 3_600_000, 2)):"
            + "\(padded(ofDay / 60_000 % 60, 2)):\(padded(ofDay / 1000 % 60, 2)).\(padded(ofDay % 1000, 3))Z"
    }

    /// A `Duration`'s `[high, low]` attoseconds as exact seconds, trailing zeros dropped: `12.5 s`, `-0.25 s`,
    /// `3 s`; `nil` for a value not of that form.
    static func seconds(_ value: JSONValue) -> String? {
        guard case .array(let halves) = value, halves.count == 2, case .integer(let high) = halves[0] else { return nil }
        var low: UInt64
        switch halves[1] {
        case .integer(let integer) where integer >= 0: low = UInt64(integer)
        case .unsignedInteger(let unsigned): low = unsigned
        default: return nil
        }
        // The 128-bit attosecond count's magnitude, by its two halves.
        let negative = high < 0
        var upper = UInt64(bitPattern: high)
        if negative {
            low = ~low &+ 1
            upper = ~upper &+ (low == 0 ? 1 : 0)
        }
        let attosecondsPerSecond: UInt64 = 1_000_000_000_000_000_000
        guard upper < attosecondsPerSecond else { return nil }
        let (whole, attoseconds) = attosecondsPerSecond.dividingFullWidth((high: upper, low: low))
        var text = (negative ? "-" : "") + String(whole)
        if attoseconds > 0 {
            var fraction = padded(Int64(attoseconds), 18)
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text += "." + fraction
        }
        return text + " s"
    }

    /// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's `civil_from_days`).
    private static func civilDate(daysSince1970: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = daysSince1970 + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// `value` in decimal with leading zeros up to `width` digits.
    private static func padded(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
