import Foundation
import SampleFeatures
import SampleReplayStores
import SampleSupport
import StoreKitCore
import StoreKitReplay
import StoreKitSystem
import Testing

/// Fault injection with real processes: each case asserts what survived, not only that nothing crashed.
@Suite struct ReplaydFaultTests {
    /// The action lines stored in a session file after its header (a trailing `end` aside).
    private static func storedActions(_ folder: TemporaryFolder, _ name: String) -> [String] {
        folder.lines(of: name).dropFirst().filter { $0.hasPrefix(#"{"action""#) }
    }

    @Test func killMinusNineAtRandomPointsUnderEightStreamingClientsLosesNothing() async throws {
        // Given eight clients streaming sessions, and a daemon killed with SIGKILL five times at random points
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var generator = SystemRandomNumberGenerator()
        let clients = 8
        var sent = [Int](repeating: 0, count: clients)
        var faults = 0
        for round in 0...5 {
            let daemon = try await DaemonProcess(folder: folder, arguments: ["--log-level", "warn"], logName: "round-\(round).log")
            // Each client reconnects, learns what was stored, and continues right after it.
            let connections = try (0..<clients).map { index -> (RawClient, Int) in
                let client = try RawClient(socket: folder.socket)
                try client.send(line: SessionLines.header(session: "fault-\(index)"))
                let lastSeq = try #require(try client.nextReply()?["lastSeq"] as? Int)
                return (client, lastSeq)
            }
            for (index, connection) in connections.enumerated() {
                // Nothing the daemon stored is lost, and nothing it did not store is claimed.
                #expect(connection.1 == Self.storedActions(folder, "counter-fault-\(index).jsonl").count)
                #expect(connection.1 <= sent[index])
                sent[index] = connection.1
            }
            let last = round == 5
            let perClient = last ? 300 : 20_000
            let counts = Locked([Int](repeating: 0, count: clients))
            let streaming = Workers(clients) { index in
                let (client, lastSeq) = connections[index]
                for sequence in (lastSeq + 1)...(lastSeq + perClient) {
                    guard (try? client.send(line: SessionLines.action(sequence))) != nil else { return }
                    counts.withLock { $0[index] = sequence }
                }
                if last { try? client.send(line: SessionLines.end(actions: lastSeq + perClient)) }
            }
            if last {
                await streaming.finished()
                await waitUntil("every session has its end line") {
                    (0..<clients).allSatisfy { folder.lines(of: "counter-fault-\($0).jsonl").last?.contains(#""reason":"finished""#) == true }
                }
                #expect(await daemon.stop() == 0)
            } else {
                // Kill once a random amount is on disk (about 300 to 3,000 lines), while every client still sends.
                let threshold = try folder.storedBytes() + Int.random(in: 50_000...500_000, using: &generator)
                try await waitUntil("\(threshold) bytes are stored") { try folder.storedBytes() >= threshold }
                await daemon.kill9()
                faults += 1
                await streaming.finished()
            }
            for index in 0..<clients { sent[index] = max(sent[index], counts.withLock { $0[index] }) }
        }

        // Then every session is whole: actions 1...n in order, no hole and no duplicate, and it replays as a match
        var total = 0
        for index in 0..<clients {
            let name = "counter-fault-\(index).jsonl"
            let actions = Self.storedActions(folder, name)
            #expect(actions == (1...actions.count).map(SessionLines.action), "\(name)")
            total += actions.count
            let report = try ReplayEngine(stores: SampleStores.all).replay(path: folder.sessions + "/" + name)
            #expect(report.verdict == .match, "\(name): \(report.verdict.name)")
        }
        #expect(faults == 5)
        print("fault injection: \(faults) SIGKILLs under \(clients) clients, \(total) lines persisted in order, 0 lost")
    }

    @Test func tenThousandMalformedLinesAreRejectedAndEveryGoodLineIsStored() async throws {
        // Given four clients whose good sessions are interleaved with 2,500 malformed lines each
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let daemon = try await DaemonProcess(folder: folder, arguments: ["--max-line-bytes", "4096"])
        var generator = SeededRandom(seed: 7)
        let good = 500
        let badPerClient = 2_500
        let streams: [[[UInt8]]] = (0..<4).map { index in
            var lines: [[UInt8]] = [Array(SessionLines.header(session: "mixed-\(index)").utf8)]
            var bad = (0..<badPerClient).map { _ in MalformedLine.make(using: &generator) }
            for sequence in 1...good {
                while !bad.isEmpty && generator.next() % 6 != 0 { lines.append(bad.removeLast()) }
                lines.append(Array(SessionLines.action(sequence).utf8))
            }
            lines += bad
            lines.append(Array(SessionLines.end(actions: good).utf8))
            return lines
        }

        // When they send everything, never reading the replies
        let clients = try streams.map { _ in try RawClient(socket: folder.socket) }
        await Workers(streams.count) { index in
            try? clients[index].send(streams[index].reduce(into: [UInt8]()) { $0 += $1 + [0x0A] })
        }.finished()
        await waitUntil("every session ends") {
            (0..<streams.count).allSatisfy {
                folder.lines(of: "counter-mixed-\($0).jsonl").last?.contains(#""reason":"finished""#) == true
            }
        }

        // Then exactly the good lines are stored, in order, and every malformed one was counted as rejected
        for index in 0..<streams.count {
            let lines = folder.lines(of: "counter-mixed-\(index).jsonl")
            #expect(lines == [SessionLines.header(session: "mixed-\(index)")] + (1...good).map(SessionLines.action) + [SessionLines.end(actions: good)])
        }
        #expect(await daemon.stop() == 0)
        let stopped = daemon.entries.last { $0["event"] as? String == "daemon.stopped" }
        #expect(stopped?["linesRejected"] as? Int == 4 * badPerClient)
        #expect(stopped?["linesStored"] as? Int == 4 * (good + 2))  // header, actions and end
    }

    @Test func aClientThatNeverReadsItsRepliesHoldsUpNobody() async throws {
        // Given a client that sends 20,000 rejected lines and never reads the replies
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let daemon = try await DaemonProcess(folder: folder)
        let slow = try RawClient(socket: folder.socket)
        try slow.send(line: SessionLines.header(session: "slow"))
        let flood = Array(repeating: #"{"kind":"nonsense"}"#, count: 20_000).joined(separator: "\n") + "\n"
        try slow.send(Array(flood.utf8))

        // When another app records a whole session meanwhile
        // (A generous answer timeout: the daemon is busy with the flood, and slower still under the sanitizers.)
        let app = try await Executables.run(
            "sample-app", ["--socket", folder.socket, "--timeout", "60", "--feature", "counter", "--actions", "300"])

        // Then that session is complete, and the slow client's replies were dropped past the bound, not queued
        #expect(app.status == 0, "\(app.stderr)")
        let files = folder.sessionFiles().filter { $0 != "counter-slow.jsonl" }
        try #require(files.count == 1)
        await waitUntil("the app's session is stored to its end") {
            folder.lines(of: files[0]).last?.contains(#""reason":"finished""#) == true
        }
        let report = try ReplayEngine(stores: SampleStores.all).replay(path: folder.sessions + "/" + files[0])
        #expect(report.verdict == .match)
        #expect(report.actionCount == 300)
        withExtendedLifetime(slow) {}
        #expect(await daemon.stop() == 0)
        let closed = daemon.entries.filter { $0["event"] as? String == "connection.closed" }
            .max { ($0["linesRejected"] as? Int ?? 0) < ($1["linesRejected"] as? Int ?? 0) }
        #expect(closed?["linesRejected"] as? Int == 20_000)
        #expect((closed?["repliesDropped"] as? Int ?? 0) > 0)
        #expect(daemon.count("line.rejected") == 100)  // the rest counted, not logged
    }

    @Test func aDeletedSocketFileIsCreatedAgainAndAppsReconnect() async throws {
        // Given a running daemon whose socket file someone deletes
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let daemon = try await DaemonProcess(folder: folder)
        unlink(folder.socket)

        // Then the daemon listens on a new socket file within a few seconds and logs it
        await waitUntil("the socket is back") { daemon.count("socket.recreated") == 1 && (try? RawClient(socket: folder.socket)) != nil }
        let app = try await Executables.run("sample-app", ["--socket", folder.socket, "--feature", "todos", "--actions", "30"])
        #expect(app.status == 0, "\(app.stderr)")
        #expect(folder.sessionFiles().count == 1)
        #expect(await daemon.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: folder.socket))
    }

    @Test func anAppKilledMidSessionGetsAnEndThatSaysSoAndItsLinesReplay() async throws {
        // Given an app recording a long session through the daemon
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let daemon = try await DaemonProcess(folder: folder)
        let app = Process()
        app.executableURL = Executables.url("sample-app")
        app.arguments = ["--socket", folder.socket, "--feature", "todos", "--actions", "10000000"]
        app.standardError = FileHandle.nullDevice
        try app.run()

        // When it is killed with SIGKILL mid-stream
        // The app dispatches flat out and its recorder's thread yields to it (a lower priority), so on a loaded
        // machine that thread may get little time: the wait is generous, and a few lines are enough to be mid-stream.
        await waitUntil("the app has recorded 20 actions", timeout: 180) {
            folder.sessionFiles().first.map { folder.lines(of: $0).count > 20 } ?? false
        }
        kill(app.processIdentifier, SIGKILL)
        app.waitUntilExit()

        // Then the daemon closes the session with `end disconnected`, and what was stored replays as a match
        let name = try #require(folder.sessionFiles().first)
        await waitUntil("the session is closed") { folder.lines(of: name).last?.contains(#""reason":"disconnected""#) == true }
        let report = try ReplayEngine(stores: SampleStores.all).replay(path: folder.sessions + "/" + name)
        #expect(report.verdict == .match)
        #expect(report.end?.reason == .disconnected)
        #expect(report.end?.actions == report.actionCount)
        #expect(await daemon.stop() == 0)
    }

    @Test func aClientCutOffMidLineHasItsCompleteLinesKeptAndThePartialOneRejected() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let daemon = try await DaemonProcess(folder: folder)
        do {
            let client = try RawClient(socket: folder.socket)
            try client.send(line: SessionLines.header(session: "cut"))
            for sequence in 1...10 { try client.send(line: SessionLines.action(sequence)) }
            try client.send(Array(SessionLines.action(11).utf8.prefix(40)))
        }
        await waitUntil("the session is closed") {
            folder.lines(of: "counter-cut.jsonl").last?.contains(#""reason":"disconnected""#) == true
        }
        #expect(Self.storedActions(folder, "counter-cut.jsonl") == (1...10).map(SessionLines.action))
        #expect(daemon.log.contains("incomplete last line: the connection closed after 40 bytes without a newline"))
        #expect(await daemon.stop() == 0)
    }
}

/// Lines that are certainly not acceptable session lines, of many kinds.
enum MalformedLine {
    static func make(using generator: inout SeededRandom) -> [UInt8] {
        let good = Array(SessionLines.action(Int(generator.next() % 400) + 1).utf8)
        switch generator.next() % 9 {
        case 0:  // random bytes that are not JSON (no newline, not starting a value)
            return [UInt8(ascii: "#")] + (0..<(generator.next() % 200)).map { _ in UInt8(generator.next() % 255 + 1) }.map { $0 == 0x0A ? 0x20 : $0 }
        case 1:  // a good line cut short: a strict prefix of an object is never valid
            return Array(good.prefix(Int(generator.next() % UInt64(good.count - 1))))
        case 2:  // invalid UTF-8 inside a string
            return Array(#"{"kind":"action","name":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        case 3:  // a mistyped field
            return Array(#"{"action":{},"kind":"action","seq":"seven","state":{},"time":0.5}"#.utf8)
        case 4:  // an unknown kind
            return Array(#"{"kind":"telemetry","seq":1}"#.utf8)
        case 5:  // over the 4096-byte limit
            return Array(#"{"kind":"action","pad":""#.utf8) + [UInt8](repeating: 0x61, count: 5000) + Array(#""}"#.utf8)
        case 6:  // a NUL byte
            return Array(#"{"kind":"action","#.utf8) + [0] + Array(#""seq":1}"#.utf8)
        case 7:  // a second header
            return Array(SessionLines.header(session: "intruder").utf8)
        default:  // not an object
            return Array("[1,2,3]".utf8)
        }
    }
}

/// A small tmpfs mounted for one test, to make the session folder full or read-only for real (even for root).
/// Needs root on Linux; ``canMount`` says whether this machine allows it.
final class SmallFilesystem {
    let path: String

    /// True where this process may mount a tmpfs (root on Linux).
    static let canMount: Bool = {
        #if os(Linux)
        guard geteuid() == 0 else { return false }
        let probe = "/tmp/rdt-mount-probe-\(getpid())"
        try? FileManager.default.createDirectory(atPath: probe, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: probe) }
        guard run("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", probe) else { return false }
        return run("umount", probe)
        #else
        return false
        #endif
    }()

    /// Mounts a tmpfs of `kilobytes` at `path`, creating the folder 0700.
    init(at path: String, kilobytes: Int) throws {
        self.path = path
        try FileManager.default.createDirectory(
            atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        guard Self.run("mount", "-t", "tmpfs", "-o", "size=\(kilobytes)k,mode=0700", "tmpfs", path) else {
            throw CocoaError(.fileWriteUnknown)
        }
    }

    /// Fills the filesystem with a file until no byte is left.
    func fill() {
        let fd = open(path + "/filler", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let block = [UInt8](repeating: 0x20, count: 4096)
        while block.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
        close(fd)
    }

    /// Deletes the filler, so there is space again.
    func free() { unlink(path + "/filler") }

    /// Remounts read-only (`true`) or read-write; false when the system refuses (a file open for writing).
    @discardableResult
    func setReadOnly(_ readOnly: Bool) -> Bool {
        Self.run("mount", "-o", "remount,\(readOnly ? "ro" : "rw")", path)
    }

    func unmount() { _ = Self.run("umount", "-l", path) }

    @discardableResult
    private static func run(_ arguments: String...) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}

@Suite(.enabled(if: SmallFilesystem.canMount, "needs root on Linux to mount a small tmpfs"))
struct ReplaydFullDiskTests {
    @Test func aFullOrReadOnlySessionFolderIsLoggedAndRecordingResumesWhenItRecovers() async throws {
        // Given a daemon storing sessions on a 256 KB filesystem, and a client streaming a session
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let disk = try SmallFilesystem(at: folder.sessions, kilobytes: 256)
        defer { disk.unmount() }
        let daemon = try await DaemonProcess(folder: folder)
        let client = try RawClient.startingSession("disk", socket: folder.socket)
        for sequence in 1...50 { try client.send(line: SessionLines.action(sequence)) }
        await waitUntil("50 actions are stored") { folder.lines(of: "counter-disk.jsonl").count == 51 }

        // When the filesystem fills up while the client keeps sending
        disk.fill()
        for sequence in 51...100 { try client.send(line: SessionLines.action(sequence)) }
        await waitUntil("the failed write is logged") { daemon.count("session.write_failed") >= 1 }
        #expect(daemon.process.isRunning)

        // And space returns
        disk.free()
        await waitUntil("writing resumes") { daemon.count("session.write_resumed") >= 1 }
        await waitUntil("100 actions are stored") { folder.lines(of: "counter-disk.jsonl").count == 101 }

        try client.send(line: SessionLines.end(actions: 100))

        // Then nothing the client sent was lost: the session is whole, in order, and the daemon never stopped
        await waitUntil("the session is complete") { folder.lines(of: "counter-disk.jsonl").count == 102 }
        #expect(folder.lines(of: "counter-disk.jsonl") == [SessionLines.header(session: "disk")] + (1...100).map(SessionLines.action) + [SessionLines.end(actions: 100)])
        let failure = daemon.entries.first { $0["event"] as? String == "session.write_failed" }
        #expect((failure?["error"] as? String)?.contains("No space left on device") == true, "\(String(describing: failure))")

        // When the folder is read-only (once the client left, so no file is open for writing there), a new
        // session is refused with the reason, and accepted once the folder is writable again
        client.close()
        await waitUntil("the folder can be remounted read-only") { disk.setReadOnly(true) }
        let refused = try RawClient(socket: folder.socket)
        try refused.send(line: SessionLines.header(session: "later"))
        let reason = try refused.nextReply()?["reason"] as? String
        #expect(reason?.contains("Read-only file system") == true, "\(String(describing: reason))")
        #expect(daemon.process.isRunning)
        #expect(disk.setReadOnly(false))
        let accepted = try RawClient(socket: folder.socket)
        try accepted.send(line: SessionLines.header(session: "later"))
        #expect(try accepted.nextReply()?["kind"] as? String == "welcome")
        #expect(await daemon.stop() == 0)
    }
}
