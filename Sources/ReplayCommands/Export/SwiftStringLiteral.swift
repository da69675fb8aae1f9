import StoreKitReplay

/// Text written into generated Swift source as data: the one way `export-test` writes a string it did not make.
///
/// Every string from a session or a file name that reaches a generated test goes through ``quoted(_:)``, in code
/// and in comments alike, so nothing in it can end the literal or the comment, interpolate, or start a line of code.
enum SwiftStringLiteral {
    /// `text` as a Swift string literal, `"..."`, that reads back as exactly `text`.
    ///
    /// Backslashes and double quotes are escaped (so `\(`, `"""` and `"#` are plain text in it), and every
    /// invisible scalar (``InvisibleScalars``: line breaks, U+2028, U+2029, U+0085, bidirectional overrides ...) is
    /// written as `\u{...}`, so the literal is one line of visible characters. It is also safe in a `//` comment.
    static func quoted(_ text: String) -> String {
        var literal = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": literal += "\\\\"
            case "\"": literal += "\\\""
            case _ where InvisibleScalars.contains(scalar): literal += InvisibleScalars.escape(scalar)
            default: literal.unicodeScalars.append(scalar)
            }
        }
        return literal + "\""
    }
}
