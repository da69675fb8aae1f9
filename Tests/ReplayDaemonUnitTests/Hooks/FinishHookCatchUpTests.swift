import Foundation
import StoreKitReplay
import StoreKitTestFixtures
import Testing

@testable import ReplayDaemon

/// The catch-up at a daemon's start, fed an index listed before this run's sessions were written, as a late first
/// refresh is.
@Suite struct FinishHookCatchUpTests {
    private static let finishedSession = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("samples/sessions/counter-basic.jsonl")

    @Test func aLateIndexHandsOverOnlyWhatEndedBeforeTheStartAndKeepsTheMarkersOfSessionsItDidNotList() throws {
        // Given a session that ended before the daemon started, then a daemon's hook, then a session that ended in
        // this run (named to come first in the index), and the marker of a session this run handed over already
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let script = folder.file("hook.sh")
        try Data(#"printf '%s\n' "$1" >> "$(dirname "$0")/runs""#.utf8).write(to: URL(fileURLWithPath: script))
        let sessions = folder.file("sessions")
        try FileManager.default.createDirectory(atPath: sessions, withIntermediateDirectories: true)
        let before = sessions + "/b-before.jsonl"
        try FileManager.default.copyItem(atPath: Self.finishedSession.path, toPath: before)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: before)
        let hook = try FinishHook(
            settings: .init(command: "/bin/sh " + script), directory: sessions, log: DaemonLog(minimum: .error))
        let during = sessions + "/a-during.jsonl"
        try FileManager.default.copyItem(atPath: Self.finishedSession.path, toPath: during)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 1)], ofItemAtPath: during)
        try FileManager.default.copyItem(atPath: Self.finishedSession.path, toPath: sessions + "/c-handed.jsonl")
        let marker = sessions + "/" + FinishHook.markerFolderName + "/c-handed.jsonl.done"
        try Data().write(to: URL(fileURLWithPath: marker))
        let lateIndex = try SessionIndex.refreshed(in: sessions).index.entries.filter { $0.file != "c-handed.jsonl" }

        // When the catch-up takes that index, and the hook runs what it queued
        hook.start()
        hook.catchUp(with: SessionIndex(entries: lateIndex))
        let deadline = Date(timeIntervalSinceNow: 60)
        while !FileManager.default.fileExists(atPath: folder.file("runs")), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        hook.stop()

        // Then only the session that ended before the start was handed over (the one that ended in this run would
        // have gone first), and the marker of the session missing from the index is kept, its file being there
        let runs = try String(contentsOfFile: folder.file("runs"), encoding: .utf8)
        #expect(runs == before + "\n")
        #expect(FileManager.default.fileExists(atPath: marker))
    }
}
