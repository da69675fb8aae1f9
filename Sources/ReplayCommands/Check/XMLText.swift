import StoreKitReplay

/// Text from a session written into an XML document (the JUnit report): the one way it is escaped there.
///
/// The document stays well-formed whatever the text holds: markup characters become entities, and every invisible
/// scalar (``InvisibleScalars``), among them each character XML 1.0 forbids (the C0 controls but tab, line feed
/// and carriage return; U+FFFE, U+FFFF), is written visibly as `\u{1B}`. Tabs and line breaks in element content
/// stay as they are; in an attribute, where a parser would turn them into spaces, they become `&#9;` and `&#10;`.
enum XMLText {
    /// Where in the document the text goes.
    enum Place {
        /// An attribute's value, between double quotes.
        case attribute
        /// An element's content.
        case content
    }

    /// `text` escaped for `place`.
    static func escaped(_ text: String, in place: Place) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "\n", "\t": escaped += place == .attribute ? "&#\(scalar.value);" : String(scalar)
            case _ where InvisibleScalars.contains(scalar): escaped += InvisibleScalars.escape(scalar)
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
