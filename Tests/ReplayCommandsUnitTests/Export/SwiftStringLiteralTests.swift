import Testing

@testable import ReplayCommands

/// Text from a session reaches generated Swift source only as a string literal that reads back as the same text,
/// on one line of visible characters: nothing in it ends the literal or a comment, interpolates, or starts code.
@Suite struct SwiftStringLiteralTests {
    /// Every control character (C0, DEL, C1), the Unicode line and paragraph separators, and a bidirectional override.
    static let invisible: [Unicode.Scalar] =
        (0x00...0x1F).compactMap(Unicode.Scalar.init) + (0x7F...0x9F).compactMap(Unicode.Scalar.init)
        + ["\u{2028}", "\u{2029}", "\u{202E}", "\u{FFFE}", "\u{FFFF}"]

    @Test(arguments: invisible)
    func anInvisibleCharacterIsWrittenAsItsEscapeAndReadsBack(_ scalar: Unicode.Scalar) throws {
        // Given text holding the character between two letters
        let text = "a" + String(scalar) + "b"

        // When it is quoted
        let literal = SwiftStringLiteral.quoted(text)

        // Then the literal is the letters around the character's \u{...} escape, and reads back as the text
        #expect(literal == "\"a\\u{\(String(scalar.value, radix: 16, uppercase: true))}b\"")
        #expect(SwiftLiteralReader.read(literal) == text)
    }

    @Test(arguments: [
        ("\"", #""\"""#),
        ("\"\"\"", #""\"\"\"""#),
        ("\\", #""\\""#),
        ("\\(exit(1))", #""\\(exit(1))""#),
        ("#\"", ##""#\"""##),
        ("\"#", ##""\"#""##),
        ("\"#); exit(1); (#\"", ##""\"#); exit(1); (#\"""##),
        ("*/", #""*/""#),
        ("/*", #""/*""#),
        ("x\n}\nfunc injected() {", #""x\u{A}}\u{A}func injected() {""#),
        ("\u{1B}]0;title\u{7}", #""\u{1B}]0;title\u{7}""#),
        ("\u{85}", #""\u{85}""#),
        ("\u{2028}\u{2029}", #""\u{2028}\u{2029}""#),
        ("café 🙂 Ω", #""café 🙂 Ω""#),
        ("", "\"\""),
    ])
    func quotesAndBackslashesAreEscapedAndTheRestKept(_ text: String, _ expected: String) throws {
        let literal = SwiftStringLiteral.quoted(text)
        #expect(literal == expected)
        #expect(SwiftLiteralReader.read(literal) == text)
    }
}

/// Reads a one-line Swift string literal as the Swift compiler does, for the escapes `SwiftStringLiteral` writes
/// and the plain ones: `nil` for anything that would not be a plain literal (an unescaped quote, a line break, an
/// interpolation, an unknown escape, a missing closing quote).
enum SwiftLiteralReader {
    static func read(_ literal: String) -> String? {
        var scalars = Array(literal.unicodeScalars)[...]
        guard scalars.popFirst() == "\"", scalars.popLast() == "\"" else { return nil }
        var text = String.UnicodeScalarView()
        while let scalar = scalars.popFirst() {
            switch scalar {
            case "\"", "\n", "\r": return nil
            case "\\":
                switch scalars.popFirst() {
                case "\\": text.append("\\")
                case "\"": text.append("\"")
                case "'": text.append("'")
                case "n": text.append("\n")
                case "r": text.append("\r")
                case "t": text.append("\t")
                case "0": text.append("\0")
                case "u":
                    guard scalars.popFirst() == "{", let end = scalars.firstIndex(of: "}") else { return nil }
                    let hex = String(String.UnicodeScalarView(scalars[..<end]))
                    guard (1...8).contains(hex.count), let value = UInt32(hex, radix: 16), let decoded = Unicode.Scalar(value)
                    else { return nil }
                    text.append(decoded)
                    scalars = scalars[(end + 1)...]
                default: return nil
                }
            default: text.append(scalar)
            }
        }
        return String(text)
    }
}
