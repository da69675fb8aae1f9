import StoreKitReplay
import Testing

@Suite struct StringControlEscapesTests {
    @Test func escapesEveryControlCharacterSeparatorAndBidirectionalControl() {
        // Given every C0 control, DEL, every C1 control, the line and paragraph separators and the bidi controls
        let short: [Unicode.Scalar: String] = ["\n": #"\n"#, "\r": #"\r"#, "\t": #"\t"#, "\u{08}": #"\b"#, "\u{0C}": #"\f"#]
        let bidi: [UInt32] = [0x061C, 0x200E, 0x200F] + Array(0x202A...0x202E) + Array(0x2066...0x2069)
        let acting = Array(0x00...0x1F) + Array(0x7F...0x9F) + [0x2028, 0x2029] + bidi

        for value in acting {
            let scalar = Unicode.Scalar(value)!
            // When one stands between two letters
            let escaped = "a\(Character(scalar))b".escapingControls()

            // Then it is written as an escape, and nothing else is changed
            let hex = String(value, radix: 16)
            let expected = short[scalar] ?? "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            #expect(escaped == "a\(expected)b", "U+\(hex)")
        }
    }

    @Test func keepsPrintableTextBackslashesAndJoinedEmojiAsTheyAre() {
        // Given text a terminal only shows: ASCII, a backslash, accents, a ZWJ family, a flag of tags, CJK
        for text in [" !\"#~ plain", #"C:\path\u001b"#, "café é", "👨‍👩‍👧", "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "日本語"] {
            // Then it is kept as it is
            #expect(text.escapingControls() == text)
        }
    }

    @Test func keepsLineBreaksWhenAskedAndChangesNothingTheSecondTime() {
        let text = "line one \u{1B}[2J\nline two\r\n"
        #expect(text.escapingControls(keepingLineBreaks: true) == "line one \\u001b[2J\nline two\\r\n")
        #expect(text.escapingControls() == "line one \\u001b[2J\\nline two\\r\\n")
        #expect(text.escapingControls().escapingControls() == text.escapingControls())
    }
}
