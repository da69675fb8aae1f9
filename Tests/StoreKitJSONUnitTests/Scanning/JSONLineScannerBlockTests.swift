import StoreKitCore
import StoreKitJSON
import Testing

/// Special bytes around 64-byte multiples and lines of every short length: where a scan that works on 64-byte
/// blocks, with a padded copy of the last one, would go wrong.
@Suite struct JSONLineScannerBlockTests {
    /// The offsets in a line, around the first two 64-byte multiples, at which the tests put a special byte.
    static let offsetsAroundBlockEdges = Array(56..<72) + Array(120..<136)

    /// `text` as the content of the string value of a one-member object, with `offset` bytes before `text`.
    static func line(with text: [UInt8], at offset: Int) -> [UInt8] {
        let head = Array(#"{"k":""#.utf8)
        let padding = [UInt8](repeating: UInt8(ascii: "a"), count: max(0, offset - head.count))
        return head + padding + text + Array(#"b"}"#.utf8)
    }

    @Test func agreesWithTheParserWhereverASpecialSequenceMeetsABlockEdge() {
        let sequences: [[UInt8]] = [
            Array(#"\""#.utf8), Array(#"\\"#.utf8), Array(#"\u00e9"#.utf8), Array(#"\ud83d\ude00"#.utf8),
            Array(#"\ud83d"#.utf8), Array(#"\ude00"#.utf8), Array(#"\u12"#.utf8), Array(#"\x"#.utf8),
            Array("é".utf8), Array("€".utf8), Array("😀".utf8), [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80],
            [0xF4, 0x90, 0x80, 0x80], [0xF0, 0x9F, 0x98], [0x01], [0x1F], [0x7F], Array(#"""#.utf8),
        ]
        for sequence in sequences {
            for offset in Self.offsetsAroundBlockEdges {
                #expect(JSONLineScannerBoundaryTests.agree(Self.line(with: sequence, at: offset)), "\(sequence) at \(offset)")
            }
        }
    }

    @Test func agreesWithTheParserOnBackslashRunsOfEveryLengthBeforeAQuote() {
        // An even run escapes itself and the quote ends the string; an odd one escapes the quote.
        for length in 1...70 {
            let run = [UInt8](repeating: UInt8(ascii: "\\"), count: length) + Array(#"""#.utf8)
            for offset in [0, 30] + Self.offsetsAroundBlockEdges {
                let line = Self.line(with: run, at: offset)
                #expect(JSONLineScannerBoundaryTests.agree(line), "run of \(length) at \(offset)")
                let closed = line.dropLast(2) + Array(#""}"#.utf8)
                #expect(JSONLineScannerBoundaryTests.agree(Array(closed)), "closed run of \(length) at \(offset)")
            }
        }
    }

    @Test func agreesWithTheParserOnLinesOfEveryLengthUpTo130() {
        for length in 0...130 {
            let string = Array(#"{"k":""#.utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: max(0, length - 8))
                + Array(#""}"#.utf8)
            let number = Array(#"{"k":"#.utf8) + [UInt8](repeating: UInt8(ascii: "1"), count: max(1, length - 6))
                + Array("}".utf8)
            let spaced = Array("{".utf8) + [UInt8](repeating: UInt8(ascii: " "), count: max(0, length - 2))
                + Array("}".utf8)
            for line in [string, number, spaced] {
                let cut = Array(line.prefix(length))
                #expect(JSONLineScannerBoundaryTests.agree(cut), "\(String(decoding: cut, as: UTF8.self))")
                #expect(JSONLineScannerBoundaryTests.agree(cut + Array("}".utf8)), "\(length) closed")
            }
        }
    }

    /// Bytes a string scan must stop at, among them 0xA2 and 0xDC, the only bytes above 0x7F that one of the
    /// quote and backslash tests lets through.
    static let specialSequences: [[UInt8]] = [
        Array(#"\""#.utf8), Array(#"\\"#.utf8), Array(#"\u00e9"#.utf8), Array(#"\x"#.utf8), Array(#"""#.utf8), [0x00],
        [0x1F], [0x7F], [0x80], [0xA2], [0xC2, 0xA2], [0xDC], [0xDC, 0x80], [0xFF], Array("😀".utf8),
    ]

    @Test func agreesWithTheParserWhereverASpecialSequenceFallsInThreeVectors() {
        // Every lane of the first three 16-byte loads from the string's start, with the string ending at every
        // distance from the line's end, so 16-byte, 8-byte and byte-by-byte scans each meet it.
        for sequence in Self.specialSequences {
            for offset in 0..<48 {
                for tail in 0..<20 {
                    let text = [UInt8](repeating: UInt8(ascii: "a"), count: offset) + sequence
                        + [UInt8](repeating: UInt8(ascii: "b"), count: tail)
                    let line = Array(#"{"k":""#.utf8) + text + Array(#""}"#.utf8)
                    #expect(JSONLineScannerBoundaryTests.agree(line), "\(sequence) at \(offset), \(tail) after")
                }
            }
        }
    }

    @Test func agreesWithTheParserOnLinesOfEveryLengthUpTo200WithASpecialSequenceNearTheEnd() {
        for length in 0...200 {
            for sequence in Self.specialSequences {
                for distance in 0..<20 where distance + sequence.count + 8 <= length {
                    // `{"k":"`, padding, the sequence, `distance` plain bytes, `"}`: `length` bytes in all.
                    let padding = length - 8 - sequence.count - distance
                    let line = Array(#"{"k":""#.utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: padding) + sequence
                        + [UInt8](repeating: UInt8(ascii: "b"), count: distance) + Array(#""}"#.utf8)
                    #expect(line.count == length)
                    #expect(JSONLineScannerBoundaryTests.agree(line), "\(sequence), \(distance) before the end of \(length)")
                }
            }
        }
    }

    @Test func reportsMembersWhoseKeysAndValuesCrossBlockEdges() {
        for offset in Self.offsetsAroundBlockEdges {
            let key = String(repeating: "k", count: offset)
            let line = Array(#"{"\#(key)":"v\"é","b":[1,"]"],"c":"x"}"#.utf8)
            var scanner = JSONLineScanner()
            #expect(line.withUnsafeBufferPointer { scanner.scanObject($0) })
            let keys = scanner.members.map { String(decoding: line[$0.key], as: UTF8.self) }
            let values = scanner.members.map { String(decoding: line[$0.value], as: UTF8.self) }
            #expect(keys == [key, "b", "c"])
            #expect(values == [#""v\"é""#, #"[1,"]"]"#, #""x""#])
        }
    }
}
