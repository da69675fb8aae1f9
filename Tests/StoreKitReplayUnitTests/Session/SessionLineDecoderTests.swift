import Foundation
import StoreKitCore
import StoreKitTestFixtures
import StoreKitReplay
import Testing

@Suite struct SessionLineDecoderTests {
    @Test(arguments: brokenSessions)
    func theReaderRefusesABrokenSessionAtItsLine(_ input: BrokenSession) throws {
        // Given a session file that breaks one rule
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write("broken.jsonl", input.text)

        // When it is read, then the reader stops at the line with its reason, instead of reading on
        let error = #expect(throws: SessionReadError.self) { _ = try Session(contentsOf: path) }
        #expect(error?.line == input.line)
        if let reason = input.reason {
            #expect(error?.description == "\(path):\(input.line): \(reason)")
        }
    }

    @Test func aGapThatStartsRightAfterWhatIsCoveredIsRead() throws {
        // Given gaps that start right after the last action, right after another gap, and at the very start
        let text = [
            headerLine, gapLine(1, 2), gapLine(3, 3), tallyAction(4), gapLine(5, 6), tallyAction(7), endLine,
        ].map { $0 + "\n" }.joined()

        // When it is read, then every line comes through in order
        let session = try Session(ndjson: Array(text.utf8))
        #expect(session.events.map(\.kind) == [.gap, .gap, .action, .gap, .action, .end])
    }

    @Test func theReaderStaysStoppedAfterABrokenLine() throws {
        // Given a reader that refused line 4 (a duplicated line)
        let text = [headerLine, tallyAction(1), tallyAction(2), tallyAction(2), tallyAction(3)].map { $0 + "\n" }.joined()
        let reader = SessionReader(bytes: Array(text.utf8), source: "dup.jsonl")
        for _ in 0..<3 { _ = try reader.next() }
        let first = #expect(throws: SessionReadError.self) { _ = try reader.next() }

        // When it is asked for more, then it throws the same error rather than reading past it
        let again = #expect(throws: SessionReadError.self) { _ = try reader.next() }
        #expect(first?.description == "dup.jsonl:4: seq 2 repeats or goes backwards: the lines before it cover sequence numbers up to 2")
        #expect(again?.description == first?.description)
    }

    @Test func decodesLinesHandedToItOneByOne() throws {
        // Given a decoder fed a header and a patch line, as a daemon would feed it
        var decoder = SessionLineDecoder(source: "live.jsonl")
        _ = try decoder.decode(line: Array(headerLine.utf8))

        // When the patch line is decoded
        let event = try decoder.decode(line: Array(patchAction(1, #"[{"op":"replace","path":"/total","value":5}]"#).utf8))

        // Then its state is resolved against the header's initial state
        guard case .action(let action) = event else {
            Issue.record("expected an action, got \(event)")
            return
        }
        #expect(action.state == .object(["items": .array([]), "labels": .array([]), "ratio": .double(1), "total": .integer(5)]))
        #expect(decoder.lineNumber == 2)
    }

    @Test func refusesALineOverTheLimitHandedToIt() {
        var decoder = SessionLineDecoder(source: "live.jsonl", maxLineBytes: 16)
        let error = #expect(throws: SessionReadError.self) { _ = try decoder.decode(line: Array(headerLine.utf8)) }
        #expect(error?.description == "live.jsonl:1: line is longer than the limit of 16 bytes")
    }
}
