import Foundation
import SampleFeatures
import SampleReplayStores
import StoreKitCore
import StoreKitReplay
import Testing

@Suite struct ReplaydInputTests {
    /// Each bad line, and words its rejection must contain.
    static let badLines: [(name: String, bytes: [UInt8], reason: String)] = [
        ("not JSON", Array("this is not json".utf8), "not JSON"),
        ("not an object", Array("[1,2,3]".utf8), "must be a JSON object"),
        ("unknown kind", Array(#"{"kind":"telemetry","seq":1}"#.utf8), "expected one of"),
        ("not UTF-8", Array(#"{"kind":"action","name":""#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8), "not valid UTF-8"),
        ("over the line limit", Array(#"{"kind":"action","pad":""#.utf8) + [UInt8](repeating: 0x61, count: 5000) + Array(#""}"#.utf8), "over the limit of 2048"),
        ("missing field", Array(#"{"kind":"action","seq":1,"time":0.1,"action":{}}"#.utf8), "field 'state' is missing"),
        ("second header", Array(SessionLines.header(session: "bad").utf8), "only be the first line"),
        // Found by Fuzz/run.sh daemon-lines: the fast path accepted a mistyped field the session reader rejects.
        ("mistyped name", Array(#"{"action":{},"kind":"action","name":5,"seq":2,"state":{},"time":0.1}"#.utf8), "field 'name' expected a string"),
    ]

    @Test func eachBadLineIsRejectedWhileAConcurrentGoodSessionCompletes() async throws {
        // Given a daemon with a small line limit and a good session streaming beside bad clients
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let daemon = try await DaemonProcess(folder: folder, arguments: ["--max-line-bytes", "2048"])
        let good = try RawClient(socket: folder.socket)
        let golden = try String(
            contentsOfFile: Executables.packageRoot.appendingPathComponent("samples/sessions/counter-basic.jsonl").path,
            encoding: .utf8
        ).split(separator: "\n").map(String.init)
        try good.send(line: golden[0])
        #expect(try good.nextReply()?["kind"] as? String == "welcome")

        for (index, bad) in Self.badLines.enumerated() {
            // When a client sends a bad line between two good ones
            let client = try RawClient.startingSession("bad-\(index)", socket: folder.socket)
            try client.send(line: SessionLines.action(1))
            try client.send(bad.bytes + [0x0A])
            try client.send(line: SessionLines.action(2))
            try good.send(line: golden[index + 1])

            // Then the bad line is rejected with its line number and reason, and the lines around it are stored
            let rejection = try client.nextReply()
            #expect(rejection?["kind"] as? String == "rejected", "\(bad.name)")
            #expect(rejection?["line"] as? Int == 3, "\(bad.name)")
            let reason = rejection?["reason"] as? String ?? ""
            #expect(reason.contains(bad.reason), "\(bad.name): \(reason)")
            try client.send(line: SessionLines.end(actions: 2))
            await waitUntil("\(bad.name): the good lines are stored") { folder.lines(of: "counter-bad-\(index).jsonl").count == 4 }
            #expect(folder.lines(of: "counter-bad-\(index).jsonl").dropFirst().first == SessionLines.action(1))
        }
        for line in golden.dropFirst(Self.badLines.count + 1) { try good.send(line: line) }
        let goodFile = try #require(folder.sessionFiles().first { !$0.contains("bad-") })
        await waitUntil("the good session is stored") { folder.lines(of: goodFile).count == golden.count }

        // And the good session replays as a match, and the daemon counted every rejection
        #expect(folder.lines(of: goodFile) == golden)
        let report = try ReplayEngine(stores: SampleStores.all).replay(path: folder.sessions + "/" + goodFile)
        #expect(report.verdict == .match)
        #expect(daemon.count("line.rejected") == Self.badLines.count)
        #expect(await daemon.stop() == 0)
        #expect(daemon.entries.last?["linesRejected"] as? Int == Self.badLines.count)
    }

    @Test func linesAroundRejectedOnesInOneWriteAreStoredInOrder() async throws {
        // Given a daemon and a client whose session has started
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let daemon = try await DaemonProcess(folder: folder)
        let client = try RawClient.startingSession("mixed", socket: folder.socket)

        // When one write holds good lines with bad ones between them, and one at the very end
        let lines = [
            SessionLines.action(1), "not json", SessionLines.action(2), SessionLines.action(3), "{}",
            SessionLines.action(4), SessionLines.end(actions: 4), "{",
        ]
        try client.send(Array((lines.joined(separator: "\n") + "\n").utf8))

        // Then exactly the good lines are stored, in order, and each bad one is rejected by its number
        let stored = [SessionLines.header(session: "mixed")] + lines.filter { $0.hasPrefix("{\"") }
        await waitUntil("the good lines are stored") { folder.lines(of: "counter-mixed.jsonl").count == stored.count }
        #expect(folder.lines(of: "counter-mixed.jsonl") == stored)
        var rejected: [Int] = []
        for _ in 0..<3 { rejected += [try client.nextReply()?["line"] as? Int ?? 0] }
        #expect(rejected == [3, 6, 9])
        #expect(await daemon.stop() == 0)
    }

    @Test(arguments: [
        (#"{"kind":"action","seq":1,"time":0,"action":{},"state":{}}"#, "the first line must be a session header"),
        ("not json at all", "not JSON"),
        (#"{"kind":"session","format":2,"sessionId":"a","storeId":"b","app":{"name":"x"},"startedAt":"t","initialState":{}}"#, "format 2 is not supported"),
        (#"{"kind":"session","format":1,"sessionId":"","storeId":"b","app":{"name":"x"},"startedAt":"t","initialState":{}}"#, "field 'sessionId' is empty"),
        (#"{"kind":"session","format":1,"sessionId":"a\u0000b","storeId":"b","app":{"name":"x"},"startedAt":"t","initialState":{}}"#, "contains a NUL byte"),
    ])
    func aFirstLineThatIsNotAValidHeaderIsRefusedAndTheConnectionClosed(line: String, reason: String) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let daemon = try await DaemonProcess(folder: folder)
        let client = try RawClient(socket: folder.socket)
        try client.send(line: line)
        let reply = try client.nextReply()
        #expect(reply?["kind"] as? String == "rejected")
        #expect((reply?["reason"] as? String)?.contains(reason) == true, "\(reply ?? [:])")
        #expect(try client.nextReply() == nil)
        #expect(folder.sessionFiles().isEmpty)
        #expect(await daemon.stop() == 0)
    }

    @Test func idsCannotChooseAPathAndHugeIdsAreRefused() async throws {
        // Given ids that try to escape the session directory
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let daemon = try await DaemonProcess(folder: folder)
        let hostile = ["../../etc/passwd", "/tmp/absolute", "..", "name with spaces/and\\slashes"]
        for id in hostile {
            let client = try RawClient(socket: folder.socket)
            try client.send(line: SessionLines.header(session: id, store: id))
            #expect(try client.nextReply()?["kind"] as? String == "welcome", "\(id)")
        }
        let huge = try RawClient(socket: folder.socket)
        try huge.send(line: SessionLines.header(session: String(repeating: "x", count: 10_000)))
        #expect((try huge.nextReply()?["reason"] as? String)?.contains("the limit is 1024") == true)

        // Then every file is a plain name inside the session directory, one per id
        await waitUntil("four session files") { folder.sessionFiles().count == 4 }
        let files = folder.sessionFiles()
        for file in files {
            #expect(!file.contains("/") && !file.hasPrefix("."), "\(file)")
            #expect(file.allSatisfy { $0.isLetter || $0.isNumber || "._-".contains($0) }, "\(file)")
        }
        #expect(Set(files).count == hostile.count)
        #expect(!FileManager.default.fileExists(atPath: "/tmp/absolute"))
        #expect(await daemon.stop() == 0)
    }
}
