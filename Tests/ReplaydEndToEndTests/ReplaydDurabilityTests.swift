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
}
