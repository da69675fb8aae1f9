import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import StoreKitTestFixtures
import Testing

/// `SessionRecorder.note(_:fields:)`: note lines between the actions, in format 3, redacted, kept by the flight
/// recorder and delta sessions, and dropped with a count when the session does not record notes.
@Suite struct SessionRecorderNoteTests {
    private func record(
        to transport: any SessionTransport, recordsNotes: Bool = true, snapshots: SnapshotPolicy = .full,
        redaction: Redaction = Redaction(), labels: Int = 0
    ) -> RecorderStatistics {
        let store = Store(initialState: Tally.State(), reducer: Tally.reducer)
        let recorder = store.startRecording(
            .init(
                storeID: "tally", app: AppInfo(name: "TallyApp", commit: String(repeating: "a", count: 40)),
                snapshots: snapshots, redaction: redaction, recordsNotes: recordsNotes),
            to: transport)
        for index in 0..<labels { store.dispatch(.label("a label long enough to make a patch the smaller line \(index)")) }
        recorder.note("launched")
        store.dispatch(.add(1))
        recorder.note("GET /score failed", fields: ["requestId": "r-17", "status": "500", "token": "s3cret"])
        store.dispatch(.add(2))
        return recorder.finishWaitingGenerously()
    }

    private static let failedRequest = NoteEvent(
        time: 0, message: "GET /score failed", fields: ["requestId": "r-17", "status": "500", "token": "s3cret"])

    /// The session's events with every time set to 0, for comparing.
    private func timeless(_ events: [SessionEvent]) -> [SessionEvent] {
        events.map { event in
            if case .note(var note) = event {
                note.time = 0
                return .note(note)
            }
            return event
        }
    }

    @Test func notesAreWrittenBetweenTheActionsInFormatThree() throws {
        // Given a recorder that records notes, when the app writes one before and one between two actions
        let transport = MemoryTransport()
        let statistics = record(to: transport)

        // Then the header says format 3 and each note is where it was written, in order of time
        let session = try transport.session()
        #expect(session.header.formatVersion == 3)
        #expect(session.events.map(\.kind) == [.note, .action, .note, .action, .end])
        #expect(timeless(session.events)[2] == .note(Self.failedRequest))
        let times = session.events.compactMap { event -> Double? in
            switch event {
            case .note(let note): note.time
            case .action(let action): action.time
            default: nil
            }
        }
        #expect(times == times.sorted())
        #expect(statistics.notesDropped == 0)
        #expect(statistics.actionsWritten == 2)
    }

    @Test func aRecorderThatDoesNotRecordNotesDropsThemCountedAndStaysFormatOne() throws {
        // Given a recorder without recordsNotes, when the app writes two notes
        let transport = MemoryTransport()
        let statistics = record(to: transport, recordsNotes: false)

        // Then the session is format 1 with its actions only, and the notes are counted as dropped, with the
        // setting that would record them named in the statistics' error
        let session = try transport.session()
        #expect(session.header.formatVersion == 1)
        #expect(session.events.map(\.kind) == [.action, .action, .end])
        #expect(statistics.notesDropped == 2)
        #expect(
            statistics.lastError
                == "a note was dropped: this recorder does not record notes "
                + "(set SessionRecorder.Configuration.recordsNotes)")
    }

    @Test func theNotePathsAreRedactedBeforeTheLineIsWritten() throws {
        // Given a recorder that redacts the token field of notes
        let transport = MemoryTransport()
        _ = record(to: transport, redaction: Redaction(notes: ["fields.token"]))

        // Then the note's token is the placeholder in the bytes written, and the header lists the path
        let bytes = String(decoding: try transport.session().ndjson, as: UTF8.self)
        #expect(!bytes.contains("s3cret"))
        #expect(bytes.contains(#""token":"<redacted>""#))
        #expect(try transport.session().header.redaction.notePaths == ["fields.token"])
    }

    @Test func deltaSessionsKeepTheirPatchesAcrossANote() throws {
        // Given delta snapshots of a state with long labels, when a note comes between two actions
        let transport = MemoryTransport()
        _ = record(to: transport, snapshots: .delta(keyframeInterval: 10), labels: 2)

        // Then the action after the note is still a patch against the one before it, and the session reads
        let session = try transport.session()
        #expect(session.events.map(\.kind) == [.action, .action, .note, .action, .note, .action, .end])
        #expect(session.actions.last?.state["items"] == .array([.integer(1), .integer(2)]))
        #expect(transport.lines.last { $0.contains(#""kind":"action""#) }?.contains(#""patch":"#) == true)
    }

    @Test func theFlightRecorderKeepsNotesInItsDump() throws {
        // Given a flight recorder, when the app records notes between actions
        let flight = FlightRecorder(maxBytes: 8_000)
        _ = record(to: flight)

        // Then its dump reads with the notes where they were
        let session = try Session(ndjson: try flight.sessionBytes())
        #expect(session.header.formatVersion == 3)
        #expect(timeless(session.events).map(\.kind) == [.note, .action, .note, .action])
        #expect(timeless(session.events)[2] == .note(Self.failedRequest))
    }
}
