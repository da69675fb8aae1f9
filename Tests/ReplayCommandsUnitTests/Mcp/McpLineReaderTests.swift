import Testing

@testable import ReplayCommands

/// The stdio framing: lines split across reads, a CR before the LF, a last line without LF, and a line over the
/// limit refused without being held whole.
@Suite struct McpLineReaderTests {
    /// A reader of `chunks`, in order, then the end.
    private func reader(_ chunks: [String], limit: Int = 16) -> McpLineReader {
        var remaining = chunks.map { Array($0.utf8) }
        return McpLineReader(limit: limit) { remaining.isEmpty ? [] : remaining.removeFirst() }
    }

    private func lines(_ reader: McpLineReader) -> [McpLineReader.Line] {
        var reader = reader
        var lines: [McpLineReader.Line] = []
        while let line = reader.next() { lines.append(line) }
        return lines
    }

    @Test func splitsLinesAcrossReadsAndDropsTheCarriageReturn() {
        #expect(lines(reader(["{\"a\"", ":1}\r\n{}\n", "[]"])) == [.line(Array("{\"a\":1}".utf8)), .line(Array("{}".utf8)), .line(Array("[]".utf8))])
    }

    @Test func refusesALineOverTheLimitAndReadsTheNextOne() {
        // Given a line of 40 bytes, over a limit of 16, arriving in pieces, then a short line
        let long = String(repeating: "x", count: 40)
        let found = lines(reader([String(long.prefix(20)), String(long.dropFirst(20)) + "\n{}\n"]))
        // Then the long one is refused with its length and the short one is read
        #expect(found == [.tooLong(40), .line(Array("{}".utf8))])
    }

    @Test func refusesALastLineOverTheLimitWithoutALineBreak() {
        #expect(lines(reader([String(repeating: "y", count: 17), String(repeating: "y", count: 20)])) == [.tooLong(37)])
    }
}
