import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitTestFixtures
import StoreKitReplay
import Testing

@Suite struct SessionReaderTests {
    @Test func readsEveryKindOfLineInOrder() throws {
        // Given a session with a header, an action, a gap and an end line
        let text = [
            headerLine,
            actionLine(1, action: #"{"add":{"_0":2}}"#, state: #"{"items":[2],"labels":[],"ratio":1.0,"total":2}"#),
            #"{"count":2,"from":2,"kind":"gap","reason":"bufferFull","to":3}"#,
            #"{"actions":3,"dropped":2,"kind":"end","reason":"finished","time":1.5}"#,
        ].joined(separator: "\n") + "\n"

        // When it is read
        let session = try Session(ndjson: Array(text.utf8))

        // Then each line becomes its event
        #expect(session.header.storeID == "tally")
        #expect(session.events.count == 3)
        #expect(session.actions.first?.sequence == 1)
        #expect(session.events[1] == .gap(GapEvent(firstSequence: 2, lastSequence: 3, reason: .bufferFull)))
        #expect(session.events[2] == .end(EndEvent(reason: .finished, actions: 3, dropped: 2, time: 1.5)))
    }

    struct BadInput: CustomTestStringConvertible, Sendable {
        let name: String
        let text: String
        let line: Int
        let message: String
        var testDescription: String { name }
    }

    static let badInputs: [BadInput] = [
        BadInput(name: "empty file", text: "", line: 0, message: "the session is empty"),
        BadInput(
            name: "missing header", text: actionLine(1, action: "\"clear\"", state: "{}") + "\n", line: 1,
            message: "the first line has kind 'action'; a session must start with a 'session' header line"),
        BadInput(
            name: "not JSON", text: headerLine + "\nhello\n", line: 2, message: "not valid JSON: at byte 0"),
        BadInput(
            name: "truncated last line", text: headerLine + "\n" + #"{"kind":"action","seq":1,"#, line: 2,
            message: "the last line is cut off"),
        BadInput(
            name: "wrong kind", text: headerLine + "\n" + #"{"kind":"acton"}"# + "\n", line: 2,
            message: "field 'kind' is 'acton'; expected one of 'session', 'action', 'gap', 'end'"),
        BadInput(
            name: "not an object", text: headerLine + "\n[1,2]\n", line: 2,
            message: "a line must be a JSON object, found array"),
        BadInput(
            name: "missing field", text: headerLine + "\n" + #"{"kind":"action","seq":1,"time":0,"state":{}}"# + "\n",
            line: 2, message: "field 'action' is missing"),
        BadInput(
            name: "mistyped field",
            text: headerLine + "\n" + #"{"action":"clear","kind":"action","seq":"one","state":{},"time":0}"# + "\n",
            line: 2, message: "field 'seq' expected an integer, found string"),
        BadInput(
            name: "nested field", text: #"{"app":{"name":7},"format":1,"initialState":{},"kind":"session","sessionId":"s","startedAt":"x","storeId":"t"}"# + "\n",
            line: 1, message: "field 'app.name' expected a string, found number"),
        BadInput(name: "empty line", text: headerLine + "\n\n", line: 2, message: "line is empty"),
        BadInput(
            name: "second header", text: headerLine + "\n" + headerLine + "\n", line: 2,
            message: "a second 'session' header line"),
        BadInput(
            name: "future format", text: headerLine.replacingOccurrences(of: #""format":1"#, with: #""format":9"#) + "\n",
            line: 1, message: "format version 9 is not supported"),
    ]

    @Test(arguments: badInputs)
    func rejectsBadInputWithItsLineAndReason(_ input: BadInput) throws {
        // Given a malformed session in a file
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write("bad.jsonl", input.text)

        // When it is read, then the error names the file, the line and the problem
        let error = #expect(throws: SessionReadError.self) { _ = try Session(contentsOf: path) }
        #expect(error?.line == input.line)
        #expect(error?.source == path)
        #expect(error?.reason.hasPrefix(input.message) == true, "\(error?.description ?? "")")
        #expect(error?.description.hasPrefix(input.line > 0 ? "\(path):\(input.line): " : "\(path): ") == true)
    }

    @Test func rejectsA50MegabyteLineWithoutHoldingIt() throws {
        // Given a session whose second line is 50 MB long
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("huge.jsonl")
        #expect(FileManager.default.createFile(atPath: path, contents: Data((headerLine + "\n").utf8)))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        let block = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
        for _ in 0..<50 { try handle.write(contentsOf: block) }
        try handle.write(contentsOf: Data("\n".utf8))
        try handle.close()

        // When it is read with the default 16 MiB limit
        let error = #expect(throws: SessionReadError.self) { _ = try Session(contentsOf: path) }

        // Then the line is rejected by size, naming the limit
        #expect(error?.line == 2)
        #expect(error?.reason == "line is longer than the limit of 16777216 bytes")
    }

    @Test func stopsReadingALineAsSoonAsItPassesTheLimit() throws {
        // Given a header and then a 1 MiB line, read with a limit of 1,000 bytes
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write("long.jsonl", headerLine + "\n" + String(repeating: "x", count: 1 << 20))
        let fd = open(path, O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        let reader = SessionReader(fileDescriptor: fd, source: "long.jsonl", ownsDescriptor: false, maxLineBytes: 1000)
        _ = try reader.next()

        // When the long line is read
        let error = #expect(throws: SessionReadError.self) { _ = try reader.next() }

        // Then it is refused at the limit, and the reader read no further than the chunk that passed it: an endless
        // line (/dev/zero on standard input) ends the same way
        #expect(error?.description == "long.jsonl:2: line is longer than the limit of 1000 bytes")
        #expect(lseek(fd, 0, SEEK_CUR) <= 1 << 16)
    }

    /// A header and two actions, one line each.
    private static let threeLines = [
        headerLine,
        actionLine(1, action: #"{"add":{"_0":2}}"#, state: #"{"items":[2],"labels":[],"ratio":1.0,"total":2}"#),
        actionLine(2, action: #"{"add":{"_0":3}}"#, state: #"{"items":[2,3],"labels":[],"ratio":1.0,"total":5}"#),
    ]

    /// The first two of ``threeLines``, and the third cut off after 20 characters, as a writer leaves it mid-line.
    private static let twoLinesAndAHalf = threeLines[0...1].map { $0 + "\n" }.joined() + threeLines[2].prefix(20)

    @Test func readsAFileAsItWasWhenOpenedThoughItGoesOn() throws {
        // Given a file of a header and an action, open for reading, to which a writer then adds an action
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write("growing.jsonl", Self.threeLines[0...1].map { $0 + "\n" }.joined())
        let reader = try SessionReader(path: path)
        try directory.append("growing.jsonl", Self.threeLines[2] + "\n")

        // When it is read to its end
        // Then the reader reads the header and the action the file held when it was opened, and then it has ended
        #expect(try Self.kinds(readBy: reader) == [.session, .action])
    }

    @Test func leavesOutALastLineThatWasStillBeingWrittenWhenOpened() throws {
        // Given a file on standard input (as `diff` hands it to the host) whose second action line was half written
        // when it was opened, and was then finished and followed by more
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write("open.jsonl", Self.twoLinesAndAHalf)
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        let reader = SessionReader(fileDescriptor: fd, source: "<stdin>", ownsDescriptor: false)
        try directory.append("open.jsonl", Self.threeLines[2].dropFirst(20) + "\n" + Self.threeLines[2] + "\n")

        // When it is read to its end
        // Then the half-written line is not yet part of the session: the reader ends after the line before it
        #expect(try Self.kinds(readBy: reader) == [.session, .action])
    }

    @Test func refusesALastLineThatStayedCutOff() throws {
        // Given a file whose last line was cut off and never finished
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write("cut.jsonl", Self.twoLinesAndAHalf)

        // When it is read to its end
        let reader = try SessionReader(path: path)
        _ = try reader.next()
        _ = try reader.next()
        let error = #expect(throws: SessionReadError.self) { _ = try reader.next() }

        // Then the cut-off line is refused as cut off
        #expect(error?.line == 3)
        #expect(error?.description.contains("the last line is cut off") == true, "\(error?.description ?? "")")
    }

    /// The kinds of the events `reader` reads to its end.
    private static func kinds(readBy reader: SessionReader) throws -> [SessionEvent.Kind] {
        var kinds: [SessionEvent.Kind] = []
        while let event = try reader.next() { kinds.append(event.kind) }
        return kinds
    }

    @Test(arguments: [("/dev/zero", "a character device"), ("/tmp", "a folder")])
    func refusesAPathThatIsNotARegularFileUnread(_ path: String, kind: String) {
        let error = #expect(throws: SessionReadError.self) { _ = try SessionReader(path: path) }
        #expect(error?.description == "\(path): cannot read the session: it is \(kind), not a regular file")
    }

    @Test func reportsAMissingFileAsAnIOError() {
        let error = #expect(throws: SessionReadError.self) { _ = try Session(contentsOf: "/tmp/no-such-session.jsonl") }
        #expect(error?.description == "/tmp/no-such-session.jsonl: cannot read the session: open /tmp/no-such-session.jsonl: No such file or directory (errno 2)")
    }

    @Test func acceptsACompleteLastLineWithoutNewline() throws {
        let session = try Session(ndjson: Array(headerLine.utf8))
        #expect(session.events.isEmpty)
    }

    @Test func writesWhatItReads() throws {
        // Given a recorded session
        let session = try recordTally([.add(1), .label("x"), .setRatio(0.25), .clear])

        // When it is written as NDJSON and read again
        let again = try Session(ndjson: session.ndjson)

        // Then nothing changed, and every line is valid against the schema
        #expect(again == session)
        for line in session.ndjson.split(separator: 0x0A) {
            #expect(SessionSchema.validator.validate(try JSONValue(parsing: Array(line))).isEmpty)
        }
    }
}
