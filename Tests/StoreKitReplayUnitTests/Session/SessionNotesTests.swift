import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import StoreKitTestFixtures
import Testing

/// Format 3: `note` lines through the event codec, the strict reader, the verifier, redaction and replay.
@Suite struct SessionNotesTests {
    private static let header = headerLine.replacingOccurrences(of: #""format":1"#, with: #""format":3"#)
    private static let note = #"{"fields":{"requestId":"r-17","status":"500"},"kind":"note","message":"GET /todos failed","time":0.25}"#
    private static let lines = [
        header, actionLine(1, action: #"{"add":{"_0":1}}"#, state: #"{"items":[1],"labels":[],"ratio":1.0,"total":1}"#),
        note, actionLine(2, action: #"{"add":{"_0":2}}"#, state: #"{"items":[1,2],"labels":[],"ratio":1.0,"total":3}"#),
    ]

    @Test func aNoteRoundTripsThroughTheEventCodecByteForByte() throws {
        // Given a note line, with fields and without
        for line in [Self.note, #"{"kind":"note","message":"screen: Todo list","time":0.0}"#] {
            // When it is decoded and encoded again
            let event = try SessionEvent(jsonValue: JSONValue(parsing: Array(line.utf8)))

            // Then the bytes are the same, and the event is a note
            #expect(event.line == Array((line + "\n").utf8))
            #expect(event.kind == .note)
        }
        let decoded = try SessionEvent(jsonValue: JSONValue(parsing: Array(Self.note.utf8)))
        #expect(decoded == .note(NoteEvent(time: 0.25, message: "GET /todos failed", fields: ["requestId": "r-17", "status": "500"])))
    }

    @Test func theReaderReadsANoteBetweenTheActionsAndVerifyPassesIt() throws {
        // Given a format 3 session with a note between two actions
        let bytes = Array(Self.lines.map { $0 + "\n" }.joined().utf8)

        // When it is read and verified
        let session = try Session(ndjson: bytes, source: "notes.jsonl")
        let result = SessionVerifier.verify(bytes: bytes, source: "notes.jsonl")

        // Then the note is the second event, and nothing is wrong, the schema included; only actions are counted
        #expect(session.header.formatVersion == 3)
        #expect(session.events.map(\.kind) == [.action, .note, .action])
        #expect(result.problems.filter { $0.message != "no 'end' line: the recording was cut off or is still running" } == [])
        #expect(result.actions == 2)
    }

    struct Refusal: Sendable, CustomTestStringConvertible {
        let name: String
        let note: String
        let header: String
        let reason: String
        var testDescription: String { name }
    }

    static let refusals: [Refusal] = [
        Refusal(
            name: "a field that is not a string", note: note.replacingOccurrences(of: #""status":"500""#, with: #""status":500"#),
            header: header, reason: "field 'fields.status' expected a string, found number"),
        Refusal(
            name: "no message", note: note.replacingOccurrences(of: #""message":"GET /todos failed","#, with: ""),
            header: header, reason: "field 'message' is missing (expected a string)"),
        Refusal(
            name: "fields that are not an object", note: note.replacingOccurrences(of: #"{"requestId":"r-17","status":"500"}"#, with: #"["r-17"]"#),
            header: header, reason: "field 'fields' expected an object, found array"),
        Refusal(
            name: "a negative time", note: note.replacingOccurrences(of: #""time":0.25"#, with: #""time":-1"#),
            header: header, reason: "field 'time' is -1.0; expected 0 or more"),
        Refusal(
            name: "a note in a format 2 session", note: note,
            header: headerLine.replacingOccurrences(of: #""format":1"#, with: #""format":2"#),
            reason: "field 'kind' is 'note', which needs format 3; this session is format 2"),
    ]

    @Test(arguments: refusals)
    func theReaderRefusesAMalformedNoteWithItsFileLineAndPath(_ refusal: Refusal) throws {
        // Given a session whose third line is a broken note, in a file
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let lines = [refusal.header, Self.lines[1], refusal.note, Self.lines[3]]
        let path = try directory.write("bad.jsonl", lines.map { $0 + "\n" }.joined())

        // When it is read, then the error names the file, the line and the field
        let error = #expect(throws: SessionReadError.self) { _ = try Session(contentsOf: path) }
        #expect(error?.description == "\(path):3: \(refusal.reason)")

        // And verify lists the same error at the same line
        let result = SessionVerifier.verify(path: path)
        #expect(result.problems.first { !$0.isWarning } == .init(line: 3, message: refusal.reason, isWarning: false))
    }

    @Test func replaySkipsNotesWithoutCountingThemAsSteps() throws {
        // Given a recorded session with notes before, between and after its actions
        let session = try Session(ndjson: Array((Self.lines + [Self.note]).map { $0 + "\n" }.joined().utf8), source: "notes.jsonl")
        let events = [SessionEvent.note(NoteEvent(time: 0, message: "launched"))] + session.events
        let withNotes = Session(header: session.header, events: events)

        // When it is replayed with the tally's reducer
        let report = ReplayEngine(stores: [Tally.replayable]).replay(withNotes)

        // Then it matches, and only the two actions are steps
        #expect(report.verdict == .match)
        #expect(report.stepsReplayed == 2)
    }

    @Test func redactionReplacesTheNotePathsInMessagesAndFields() {
        // Given a note with a secret field, and a redaction of that field and of every message
        let note = NoteEvent(time: 1, message: "signed in as ada", fields: ["token": "s3cret", "status": "200"])

        // When it is redacted
        let redacted = Redaction(notes: ["fields.token", "message"]).redactingNote(note)

        // Then the secret field and the message are placeholders, the other field as it was
        #expect(redacted == NoteEvent(time: 1, message: "<redacted>", fields: ["token": "<redacted>", "status": "200"]))
        #expect(Redaction(notes: ["fields.*"]).redactingNote(note).fields == ["token": "<redacted>", "status": "<redacted>"])
    }

    @Test func trimmingKeepsTheNotesAfterTheActionsItKeeps() throws {
        // Given the session with a note after step 1
        let session = try Session(ndjson: Array(Self.lines.map { $0 + "\n" }.joined().utf8), source: "notes.jsonl")

        // When it is trimmed to step 1, then to step 2
        let first = try session.trimmed(to: 1...1)
        let second = try session.trimmed(to: 2...2)

        // Then the note stays with step 1 and leaves with it
        #expect(first.events.map(\.kind) == [.action, .note, .end])
        #expect(second.events.map(\.kind) == [.action, .end])
    }
}
