import Foundation
import StoreKitCore
import Testing

/// `replayd --max-age` and `--max-bytes`: finished sessions past a limit are removed oldest first and logged;
/// a session a client is recording is never removed.
@Suite struct ReplaydRetentionTests {
    /// Writes a finished session file last modified `age` ago.
    private func storeFinishedSession(_ name: String, in folder: TemporaryFolder, bytes: Int = 200, age: TimeInterval) throws {
        let path = folder.sessions + "/" + name
        let header = SessionLines.header(session: name)
        let padding = String(repeating: " ", count: max(0, bytes - header.utf8.count - 1))
        try Data((header + padding + "\n").utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -age), .posixPermissions: 0o600], ofItemAtPath: path)
    }

    private func makeSessionFolder(_ folder: TemporaryFolder) throws {
        try FileManager.default.createDirectory(
            atPath: folder.sessions, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    }

    private func removals(_ daemon: DaemonProcess) -> [String: String] {
        var removed: [String: String] = [:]
        for entry in daemon.entries where entry["event"] as? String == "session.removed" {
            let file = URL(fileURLWithPath: entry["file"] as? String ?? "").lastPathComponent
            removed[file] = entry["reason"] as? String
        }
        return removed
    }

    @Test func sessionsOlderThanMaxAgeAreRemovedAndLogged() async throws {
        // Given three sessions last written days ago and one written now
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try makeSessionFolder(folder)
        for name in ["a.jsonl", "b.jsonl", "c.jsonl"] { try storeFinishedSession(name, in: folder, age: 3 * 86_400) }
        try storeFinishedSession("fresh.jsonl", in: folder, age: 0)

        // When replayd keeps two days
        let daemon = try await DaemonProcess(folder: folder, arguments: ["--max-age", "2d"])

        // Then the three old ones are removed, each logged with its reason, and the fresh one stays
        await waitUntil("the old sessions are removed") { daemon.count("session.removed") == 3 }
        #expect(removals(daemon) == ["a.jsonl": "maxAge", "b.jsonl": "maxAge", "c.jsonl": "maxAge"])
        #expect(folder.sessionFiles() == ["fresh.jsonl"])
        await daemon.stop()
    }

    @Test func beyondMaxBytesTheOldestSessionsGoFirst() async throws {
        // Given four 1,000-byte sessions written an hour, two, three and four hours ago
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try makeSessionFolder(folder)
        for (hours, name) in [(4, "h4.jsonl"), (3, "h3.jsonl"), (2, "h2.jsonl"), (1, "h1.jsonl")] {
            try storeFinishedSession(name, in: folder, bytes: 1000, age: Double(hours) * 3600)
        }

        // When replayd may keep 2,500 bytes
        let daemon = try await DaemonProcess(folder: folder, arguments: ["--max-bytes", "2500"])

        // Then the two oldest go, and the two newest stay
        await waitUntil("the oldest sessions are removed") { daemon.count("session.removed") == 2 }
        #expect(removals(daemon) == ["h4.jsonl": "maxBytes", "h3.jsonl": "maxBytes"])
        #expect(folder.sessionFiles() == ["h1.jsonl", "h2.jsonl"])
        await daemon.stop()
    }

    @Test func aSessionBeingRecordedIsNeverRemovedHoweverOld() async throws {
        // Given a daemon that keeps sessions two seconds, and a client recording a session
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let daemon = try await DaemonProcess(folder: folder, arguments: ["--max-age", "2s"])
        let client = try RawClient.startingSession("open", socket: folder.socket)
        try client.send(line: SessionLines.action(1))
        let openFile = "counter-open.jsonl"
        await waitUntil("the session is stored") { folder.lines(of: openFile).count == 2 }

        // When its file looks an hour old, and then a finished session an hour old appears
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: folder.sessions + "/" + openFile)
        try storeFinishedSession("done.jsonl", in: folder, age: 3600)

        // Then the finished one is removed and the open one is kept
        await waitUntil("the finished session is removed") { daemon.count("session.removed") == 1 }
        #expect(removals(daemon) == ["done.jsonl": "maxAge"])
        #expect(folder.sessionFiles() == [openFile])

        // And once the client is gone and the session two seconds old, it goes too
        client.close()
        await waitUntil("the ended session is removed") { daemon.count("session.removed") == 2 }
        #expect(folder.sessionFiles() == [])
        await daemon.stop()
    }
}
