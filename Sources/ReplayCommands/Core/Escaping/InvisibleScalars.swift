/// The characters the command line's output formats (Swift source, XML, Markdown) never write raw, and the visible
/// form they write instead, Swift's own escape: `\u{1B}`.
///
/// Raw, each would let text from a session act as something else: a control character (C0, DEL, C1, NEL among
/// them) or a line or paragraph separator ends a line, a comment or a table row, or drives a terminal; a format
/// character (a bidirectional override, a zero-width mark) makes text read differently from what it is; a
/// noncharacter (U+FFFE, U+FFFF) or an unassigned one is not text at all.
enum InvisibleScalars {
    /// Whether `scalar` is one the output formats show escaped.
    static func contains(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned: true
        default: false
        }
    }

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
