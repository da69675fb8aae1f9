import Foundation
import StoreKitCore
import StoreKitReplay
import Testing

/// Format 3 through the real daemon: note lines stored as sent, and refused in a session of an older format.
@Suite struct ReplaydNoteTests {
    private static let note = #"{"fields":{"requestId":"r-17","status":"500"},"kind":"note","message":"GET /todos failed","time":0.0015}"#

    private static func header(session: String, format: Int) -> String {
        let header = SessionHeader(
            formatVersion: format, sessionID: session, storeID: "counter",
            app: AppInfo(name: "Tests", version: "1", build: "1", schemaVersion: "1"),
            startedAt: "2026-11-22T00:00:00.000Z", host: "test", pid: 1,
            initialState: .object(["count": .integer(0), "step": .integer(1)]))
        return String(decoding: SessionEvent.header(header).line.dropLast(), as: UTF8.self)
    }

    @Test func aFormatThreeSessionWithNotesIsStoredByteForByte() async throws {
        // Given a daemon and a client that starts a format 3 session
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let daemon = try await DaemonProcess(folder: folder)
        let client = try RawClient(socket: folder.socket)
        let lines = [
            Self.header(session: "notes", format: 3), SessionLines.action(1), Self.note, SessionLines.action(2),
            SessionLines.end(actions: 2),
        ]
        try client.send(line: lines[0])
        _ = try client.nextReply()

        // When it sends a note between two actions
        try client.send(Array(lines.dropFirst().map { $0 + "\n" }.joined().utf8))

        // Then the file holds exactly the bytes sent, and the reader reads the note where it was
        let name = "counter-notes.jsonl"
        await waitUntil("the session is stored") { folder.lines(of: name).count == lines.count }
        #expect(await daemon.stop() == 0)
        let stored = try Data(contentsOf: URL(fileURLWithPath: folder.sessions + "/" + name))
        #expect(stored == Data(lines.map { $0 + "\n" }.joined().utf8))
        let session = try Session(contentsOf: folder.sessions + "/" + name)
        #expect(session.events[1] == .note(NoteEvent(time: 0.0015, message: "GET /todos failed", fields: ["requestId": "r-17", "status": "500"])))
        #expect(daemon.count("line.rejected") == 0)
    }

    @Test func aNoteInAFormatOneSessionIsRejectedWithTheReadersReason() async throws {
        // Given a daemon and a format 1 session at its first action
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let daemon = try await DaemonProcess(folder: folder)
        let client = try RawClient(socket: folder.socket)
        try client.send(line: Self.header(session: "old", format: 1))
        _ = try client.nextReply()

        // When it sends a note, then another action
        try client.send(Array([SessionLines.action(1), Self.note, SessionLines.action(2)].map { $0 + "\n" }.joined().utf8))

        // Then the note is rejected by its line number with the reader's reason, and the actions are stored
        let reply = try client.nextReply()
        #expect(reply?["kind"] as? String == "rejected")
        #expect(reply?["line"] as? Int == 3)
        #expect(reply?["reason"] as? String == "field 'kind' is 'note', which needs format 3; this session is format 1")
        let name = "counter-old.jsonl"
        await waitUntil("the actions are stored") { folder.lines(of: name).count == 3 }
        await waitUntil("the rejection is logged") { daemon.count("line.rejected") == 1 }
        #expect(await daemon.stop() == 0)
        #expect(
            Array(folder.lines(of: name).prefix(3))
                == [Self.header(session: "old", format: 1), SessionLines.action(1), SessionLines.action(2)])
    }
}
