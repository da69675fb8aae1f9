import StoreKitReplay

/// How the command line's output formats (Swift source, XML, Markdown, messages quoting a value) write an invisible
/// scalar (``InvisibleScalars/contains(_:)``): visibly, as Swift's own escape `\u{1B}`.
extension InvisibleScalars {
    /// `scalar` as Swift escapes it, `\u{1B}`: hexadecimal, upper case, without leading zeros.
    static func escape(_ scalar: Unicode.Scalar) -> String {
        "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    }

    /// `text` with each invisible scalar written as its escape, as a message quotes a value from the command line.
    static func shown(_ text: String) -> String {
        var shown = ""
        for scalar in text.unicodeScalars {
            if contains(scalar) { shown += escape(scalar) } else { shown.unicodeScalars.append(scalar) }
        }
        return shown
    }
}
