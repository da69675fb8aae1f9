import Foundation
import SampleFeatures
import SampleReplayStores
import StoreKitCore
import StoreKitReplay
import Testing

@Suite struct ReplaydDurabilityTests {
    @Test func killMinusNineLosesNoLineTheDaemonHadReadAndAPartialLineIsRepaired() async throws {
        // Given a client streaming a session
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let daemon = try await DaemonProcess(folder: folder)
        let client = try RawClient.startingSession("k9", socket: folder.socket)
        var sent = 0
        for sequence in 1...200 {
            try client.send(line: SessionLines.action(sequence))
            sent = sequence
        }
        await waitUntil("200 actions are stored") { folder.lines(of: "counter-k9.jsonl").count == 201 }

        // When the daemon is killed while the client keeps sending, and a torn line is left at the end
        await daemon.kill9()
        for sequence in 201...260 {
            guard (try? client.send(line: SessionLines.action(sequence))) != nil else { break }
            sent = sequence
        }
        let file = folder.sessions + "/counter-k9.jsonl"
        let torn = Array(#"{"action":{"increment":{}},"kind":"act"#.utf8)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
        try handle.seekToEnd()
        try handle.write(contentsOf: torn)
        try handle.close()

        // Then the file is a gap-free prefix of what was sent: no hole, no duplicate
        let beforeRestart = folder.lines(of: "counter-k9.jsonl")
        let stored = beforeRestart.dropFirst().filter { $0.hasPrefix(#"{"action""#) && $0.hasSuffix("}") }
        #expect(stored.count >= 200)
        #expect(Array(stored) == (1...stored.count).map(SessionLines.action))
        #expect(stored.count <= sent)

        // And a restarted daemon moves the torn bytes aside and truncates the file after its last complete line
        let restarted = try await DaemonProcess(folder: folder, logName: "restarted.log")
        // (The socket accepts connections before the start-up repair is logged; serving waits for the repair.)
        await waitUntil("the repair is logged") { restarted.count("file.repaired") == 1 }
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder.sessions).filter { $0.contains(".partial-") }
        try #require(kept.count == 1)
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: folder.sessions + "/" + kept[0]))) == torn)
        let repaired = try Data(contentsOf: URL(fileURLWithPath: file))
        #expect(repaired.last == 0x0A)
        #expect(folder.lines(of: "counter-k9.jsonl") == [SessionLines.header(session: "k9")] + stored)

        // And the app, reconnecting, learns exactly how much was stored
        let again = try RawClient(socket: folder.socket)
        try again.send(line: SessionLines.header(session: "k9"))
        #expect(try again.nextReply()?["lastSeq"] as? Int == stored.count)
        #expect(await restarted.stop() == 0)
    }

    @Test func aRecorderWhoseDaemonIsKilledAndRestartedRecordsAGapAndContinues() async throws {
        // Given an app recording through replayd
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var daemon = try await DaemonProcess(folder: folder)
        let store = Store(initialState: Counter.State(), reducer: Counter.reducer)
        let app = AppInfo(name: "Tests", version: "1", build: "1", schemaVersion: "1")
        let recorder = store.startRecording(
            .init(storeID: Counter.storeID, app: app, sessionID: "reconnect"),
            to: UnixSocketTransport(path: folder.socket, timeout: 2))
        let name = "counter-reconnect.jsonl"
        for _ in 1...20 { store.dispatch(.increment) }
        await waitUntil("20 actions are stored") { folder.lines(of: name).count == 21 }

        // When the daemon is killed, the app goes on, and the daemon comes back
        await daemon.kill9()
        for _ in 1...10 { store.dispatch(.increment) }
        daemon = try await DaemonProcess(folder: folder, logName: "restarted.log")
        await waitUntil("the recorder reconnects and stores new actions") {
            store.dispatch(.increment)
            return daemon.count("session.started") == 1 && folder.lines(of: name).count > 23
        }
        let statistics = recorder.finish(timeout: .seconds(120))
        #expect(statistics.isFinished)
        #expect(await daemon.stop() == 0)

        // Then the session has a gap for what was lost, and continues after it
        let session = try Session(contentsOf: folder.sessions + "/" + name)
        let gaps = session.events.compactMap { event -> GapEvent? in
            if case .gap(let gap) = event { return gap }
            return nil
        }
        try #require(gaps.count == 1)
        #expect(gaps[0].firstSequence == 21)
        #expect(gaps[0].reason == .transportFailed)
        #expect(session.actions.last?.sequence == statistics.actionsSeen)
        #expect(session.actions.count + gaps[0].count == statistics.actionsSeen)
        #expect(session.actions.map(\.sequence) == Array(1...20) + Array((gaps[0].lastSequence + 1)...statistics.actionsSeen))

        // And it replays as incomplete, not as a divergence
        let report = ReplayEngine(stores: SampleStores.all).replay(session)
        #expect(report.verdict.name == "incomplete")
        #expect(report.divergences.isEmpty)
    }
}
