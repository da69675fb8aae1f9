import Foundation
import SampleFeatures
import SampleReplayStores
import StoreKitCore
import StoreKitReplay
import StoreKitTestFixtures
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

    /// Found by sending one 64 MB line: the daemon's resident memory rose from 27 MB to 70 MB and stayed, because the
    /// framer's buffer doubled past the limit before the line was known to be too long, and the allocator kept it.
    @Test(
        .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status"), "reads VmRSS from /proc"),
        .enabled(if: !Sanitizers.areRunning, "a sanitizer keeps its shadow of the memory the daemon touched"))
    func anOverLongLineLeavesNothingResidentOnceItIsRejected() async throws {
        // Given a daemon with the default 16 MB line limit, and a client whose session has started
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let daemon = try await DaemonProcess(folder: folder)
        let client = try RawClient.startingSession("long", socket: folder.socket)
        try client.send(line: SessionLines.action(1))
        await waitUntil("the first action is stored") { folder.lines(of: "counter-long.jsonl").count == 2 }
        let before = try #require(Self.residentBytes(of: daemon.process.processIdentifier))

        // When it sends a 40 MB line, a megabyte at a time, then a good line
        try client.send(Array(#"{"kind":"action","pad":""#.utf8))
        let megabyte = [UInt8](repeating: 0x61, count: 1 << 20)
        for _ in 0..<40 { try client.send(megabyte) }
        try client.send(Array(#""}"#.utf8) + [0x0A])
        try client.send(line: SessionLines.action(2))

        // Then the line is rejected, the next one stored, and the daemon holds well under the 32 MB it used to keep
        // (a loaded CI run of the debug build read 8.3 MB more, its other memory moving as it works)
        let reason = try client.nextReply()?["reason"] as? String ?? ""
        #expect(reason.contains("over the limit of 16777216"), "\(reason)")
        await waitUntil("the next action is stored") { folder.lines(of: "counter-long.jsonl").count == 3 }
        let after = try #require(Self.residentBytes(of: daemon.process.processIdentifier))
        #expect(after - before < 16 << 20, "resident \(before >> 20) MB before the line, \(after >> 20) MB after")
        #expect(await daemon.stop() == 0)
    }

    /// A process's resident memory in bytes, from `/proc/PID/status` (Linux).
    static func residentBytes(of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return kilobytes << 10
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
        try client.send(lines: lines)

        // Then exactly the good lines are stored, in order, and each bad one is rejected by its number
        let stored = [SessionLines.header(session: "mixed")] + lines.filter { $0.hasPrefix("{\"") }
        await waitUntil("the good lines are stored") { folder.lines(of: "counter-mixed.jsonl").count == stored.count }
        #expect(folder.lines(of: "counter-mixed.jsonl") == stored)
        var rejected: [Int] = []
        for _ in 0..<3 { rejected += [try client.nextReply()?["line"] as? Int ?? 0] }
        #expect(rejected == [3, 6, 9])
        #expect(await daemon.stop() == 0)
    }

    @Test func sequenceNumbersPastTheLargestAreRefusedAndTheDaemonGoesOn() async throws {
        // Given a daemon and a client whose session has started
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let daemon = try await DaemonProcess(folder: folder)
        let client = try RawClient.startingSession("huge", socket: folder.socket)

        // When it sends a gap to the largest integer, then a gap that could only follow it, then an action past 2^53 - 1
        let huge = [
            #"{"from":2,"kind":"gap","reason":"bufferFull","to":9223372036854775807}"#,
            #"{"from":5,"kind":"gap","reason":"bufferFull","to":9223372036854775807}"#,
            SessionLines.action(9_007_199_254_740_992),
        ]
        let lines = [SessionLines.action(1)] + huge + [SessionLines.action(2), SessionLines.end(actions: 2)]
        try client.send(lines: lines)

        // Then each of the three is refused by its number and field, the lines around them are stored, and the daemon
        // still serves another client
        for (index, line) in huge.enumerated() {
            let reply = try client.nextReply()
            #expect(reply?["kind"] as? String == "rejected", "\(line)")
            #expect(reply?["line"] as? Int == 3 + index, "\(line)")
            let reason = reply?["reason"] as? String ?? ""
            #expect(reason.contains("sequence numbers go up to 9007199254740991"), "\(line): \(reason)")
        }
        await waitUntil("the good lines are stored") { folder.lines(of: "counter-huge.jsonl").count == 4 }
        #expect(folder.lines(of: "counter-huge.jsonl") == [SessionLines.header(session: "huge"), lines[0], lines[4], lines[5]])
        let later = try RawClient.startingSession("later", socket: folder.socket)
        try later.send(line: SessionLines.action(1))
        await waitUntil("a later session is stored") { folder.lines(of: "counter-later.jsonl").count == 2 }
        #expect(await daemon.stop() == 0)
    }

    @Test(arguments: [
        (#"{"kind":"action","seq":1,"time":0,"action":{},"state":{}}"#, "the first line must be a session header"),
        ("not json at all", "not JSON"),
        (#"{"kind":"session","format":4,"sessionId":"a","storeId":"b","app":{"name":"x"},"startedAt":"t","initialState":{}}"#, "format 4 is not supported"),
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
            #expect(file.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-%~".contains($0)) }, "\(file)")
        }
        #expect(Set(files).count == hostile.count)
        #expect(!FileManager.default.fileExists(atPath: "/tmp/absolute"))
        #expect(await daemon.stop() == 0)
    }

    /// Pairs of sessions that earlier replayd versions stored in one file: a `-` moved between the ids, an id that
    /// was changed against the text it became, and two ids whose 32-bit hashes collide.
    static let onceMerged: [(first: (store: String, session: String), second: (store: String, session: String))] = [
        (("probe-a", "b"), ("probe", "a-b")), (("counter", "x/"), ("counter", "x_-0262f878")),
        (("counter", "!$%,?"), ("counter", "!@^@$")),
    ]

    @Test func sessionsWhoseIdsOnceSharedAFileAreStoredApart() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let daemon = try await DaemonProcess(folder: folder)
        for (first, second) in Self.onceMerged {
            // Given a first session that stored three actions and was cut off
            let firstHeader = SessionLines.header(session: first.session, store: first.store)
            let early = try RawClient(socket: folder.socket)
            try early.send(line: firstHeader)
            let firstFile = try #require(try early.nextReply()?["file"] as? String)
            for sequence in 1...3 { try early.send(line: SessionLines.action(sequence)) }
            await waitUntil("\(first): three actions are stored") { folder.lines(of: firstFile).count == 4 }
            early.close()
            await waitUntil("\(first): the disconnection is stored") {
                folder.lines(of: firstFile).last?.contains(#""reason":"disconnected""#) == true
            }

            // When the second session records ten actions
            let secondHeader = SessionLines.header(session: second.session, store: second.store)
            let late = try RawClient(socket: folder.socket)
            try late.send(line: secondHeader)
            let welcome = try late.nextReply()
            #expect(welcome?["kind"] as? String == "welcome", "\(second): \(welcome ?? [:])")
            #expect(welcome?["lastSeq"] as? Int == 0, "\(second)")
            let secondFile = try #require(welcome?["file"] as? String)
            for sequence in 1...10 { try late.send(line: SessionLines.action(sequence)) }
            try late.send(line: SessionLines.end(actions: 10))

            // Then each is in a file of its own, under its own header, with every line
            let secondLines = [secondHeader] + (1...10).map(SessionLines.action) + [SessionLines.end(actions: 10)]
            await waitUntil("\(second): the session is stored") { folder.lines(of: secondFile).count == secondLines.count }
            #expect(secondFile != firstFile)
            #expect(folder.lines(of: secondFile) == secondLines, "\(second)")
            #expect(Array(folder.lines(of: firstFile).prefix(4)) == [firstHeader] + (1...3).map(SessionLines.action))
            #expect(folder.lines(of: firstFile).count == 5, "\(first)")
        }
        #expect(folder.sessionFiles().count == 2 * Self.onceMerged.count)
        #expect(await daemon.stop() == 0)
    }

    @Test func aFileHoldingAnotherSessionIsNeverAppendedTo() async throws {
        // Given the file an older replayd stored store 'probe-a' session 'b' in, under the name this one gives
        // store 'probe' session 'a-b'
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(
            atPath: folder.sessions, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let stored = Data(([SessionLines.header(session: "b", store: "probe-a"), SessionLines.action(1)].joined(separator: "\n") + "\n").utf8)
        let path = folder.sessions + "/probe-a-b.jsonl"
        #expect(FileManager.default.createFile(atPath: path, contents: stored, attributes: [.posixPermissions: 0o600]))
        let daemon = try await DaemonProcess(folder: folder)

        // When a client records store 'probe' session 'a-b'
        let client = try RawClient(socket: folder.socket)
        try client.send(line: SessionLines.header(session: "a-b", store: "probe"))

        // Then the session is refused with the reason, logged, and the file keeps its bytes
        let reply = try client.nextReply()
        #expect(reply?["kind"] as? String == "rejected")
        let reason = reply?["reason"] as? String ?? ""
        #expect(reason.contains("probe-a-b.jsonl holds another session (store 'probe-a', session 'b')"), "\(reason)")
        #expect(try client.nextReply() == nil)
        #expect(await daemon.stop() == 0)
        #expect(daemon.count("session.open_failed") == 1)
        #expect(FileManager.default.contents(atPath: path) == stored)
    }
}
