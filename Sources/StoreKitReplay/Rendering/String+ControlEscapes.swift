extension String {
    /// The text with every character a terminal would act on instead of showing written as a visible JSON-style
    /// escape, so that text from a session is shown and never retitles, clears, links or reorders a terminal.
    ///
    /// Escaped: the characters a terminal acts on (``InvisibleScalars/actsOnTerminal(_:)``), the C0 controls (`\n`, `\r`, `\t`, `\b`, `\f`, and `\u001b` for ESC and the like), DEL and the C1
    /// controls U+0080–U+009F (`\u009b`, a one-character CSI), the line and paragraph separators U+2028 and U+2029,
    /// and the bidirectional controls (`\u202e` and the others of Unicode's Bidi_Control). Everything else, a
    /// backslash included, is kept as it is: an escape's text is then the same inside a JSON string literal and
    /// outside, so text rendered as JSON stays JSON that means the same, and applying it twice changes nothing.
    /// - Parameter keepingLineBreaks: Whether `\n` stays a line break, for text of several lines whose every line
    ///   break is the renderer's own.
    /// - Returns: The text to write to a terminal.
    package func escapingControls(keepingLineBreaks: Bool = false) -> String {
        // Printable ASCII, the common case, needs nothing: its bytes are checked in place.
        var text = self
        if text.withUTF8({ bytes in bytes.allSatisfy { $0 &- 0x20 < 0x5F || (keepingLineBreaks && $0 == 0x0A) } }) {
            return self
        }
        var escaped = ""
        escaped.reserveCapacity(utf8.count + 16)
        for scalar in unicodeScalars {
            switch scalar {
            case "\n" where keepingLineBreaks: escaped.unicodeScalars.append(scalar)
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case "\u{08}": escaped += "\\b"
            case "\u{0C}": escaped += "\\f"
            case _ where InvisibleScalars.actsOnTerminal(scalar):
                let hex = String(scalar.value, radix: 16)
                escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
