import Foundation
import SampleFeatures
import SampleReplayStores
import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import StoreKitSystem
import StoreKitTestFixtures
import Testing

@Suite struct ReplaydSessionTests {
    @Test func theSampleAppsSessionIsStoredAndReplaysAsAMatch() async throws {
        // Given a daemon on a temporary socket
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let daemon = try await DaemonProcess(folder: folder)

        // When the real sample app records through it
        let app = try await Executables.run("sample-app", ["--socket", folder.socket, "--feature", "todos", "--actions", "60"])
        #expect(app.status == 0, "\(app.stderr)")
        #expect(await daemon.stop() == 0)

        // Then one session file holds the session, and it replays as a match
        let files = folder.sessionFiles()
        try #require(files.count == 1, "\(files)")
        let report = try ReplayEngine(stores: SampleStores.all).replay(path: folder.sessions + "/" + files[0])
        #expect(report.verdict == .match)
        #expect(report.actionCount == 60)
        #expect(report.end?.reason == .finished)
        #expect(files[0].hasPrefix("todos-"))
    }

    @Test func twoHundredConcurrentClientsAreAllStoredCompletely() async throws {
        // Given 200 clients connected at once
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // (This one process stands in for 200 apps, so it may have that many connections, and a few more: the
        // connection that found the daemon listening counts until a worker notices it closed, later on a busy machine.)
        let daemon = try await DaemonProcess(
            folder: folder, arguments: ["--log-level", "warn", "--max-connections-per-peer", "210"])
        let clients = try (0..<200).map { _ in try RawClient(socket: folder.socket) }
        let actions = 50

        // When they stream their sessions interleaved, a few lines at a time, from four threads
        let failures = Locked<[String]>([])
        await Workers(4) { lane in
            func send(_ index: Int, _ body: () throws -> Void) {
                do { try body() } catch { failures.withLock { $0.append("client-\(index): \(error)") } }
            }
            for (index, client) in clients.enumerated() where index % 4 == lane {
                send(index) { try client.send(line: SessionLines.header(session: "client-\(index)")) }
            }
            for chunk in stride(from: 1, through: actions, by: 5) {
                for (index, client) in clients.enumerated() where index % 4 == lane {
                    let lines = (chunk..<(chunk + 5)).map(SessionLines.action).joined(separator: "\n") + "\n"
                    send(index) { try client.send(Array(lines.utf8)) }
                }
            }
            for (index, client) in clients.enumerated() where index % 4 == lane {
                send(index) { try client.send(line: SessionLines.end(actions: actions)) }
            }
        }.finished()
        #expect(failures.withLock { $0 }.isEmpty)

        // Then every session is complete, line for line
        await waitUntil("200 sessions hold 52 lines", timeout: 120) {
            folder.sessionFiles().count == 200 && folder.sessionFiles().allSatisfy { folder.lines(of: $0).count == 52 }
        }
        let incomplete = (0..<200).filter { index in
            let expected = [SessionLines.header(session: "client-\(index)")] + (1...actions).map(SessionLines.action)
                + [SessionLines.end(actions: actions)]
            return folder.lines(of: "counter-client-\(index).jsonl") != expected
        }
        #expect(incomplete.isEmpty, "sessions not stored line for line: \(incomplete.map { "client-\($0)" })")
        #expect(daemon.count("line.rejected") == 0)
        _ = clients
        #expect(await daemon.stop() == 0)
    }

    @Test func workerThreadsDefaultToTwoPerCoreAndAtLeastEight() async throws {
        // Given a daemon started without --threads, and one started with --threads 3
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let byDefault = try await DaemonProcess(folder: folder, socket: folder.path + "/a.sock", logName: "a.log")
        let chosen = try await DaemonProcess(
            folder: folder, socket: folder.path + "/b.sock", arguments: ["--threads", "3"], logName: "b.log")
        // (where the system shows threads' names, each worker shows as one, for top -H, gdb and perf)
        if ThreadNames.areReadable {
            let pid = chosen.process.processIdentifier
            await waitUntil("3 threads named replayd worker", timeout: DaemonProcess.processTimeout) {
                ThreadNames.count(inProcess: pid) { $0 == "replayd worker" } == 3
            }
        }
        #expect(await byDefault.stop() == 0)
        #expect(await chosen.stop() == 0)

        // Then the default is more threads than cores (a write waiting on the disk must not idle a core), and an
        // explicit count is kept
        func threads(_ daemon: DaemonProcess) -> Int? {
            daemon.entries.first { $0["event"] as? String == "daemon.started" }?["threads"] as? Int
        }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        #expect(threads(byDefault) == min(max(2 * cores, 8), 64))
        #expect(threads(chosen) == 3)
    }

    @Test func aReconnectContinuesTheSameFileWithoutASecondHeader() async throws {
        // Given a session whose client vanished after three actions, on a daemon with two worker threads (clients
        // are handed out in turn, so the intruder below is served by another thread than the reconnected client)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let daemon = try await DaemonProcess(folder: folder, arguments: ["--threads", "2"])
        do {
            let first = try RawClient(socket: folder.socket)
            try first.send(line: SessionLines.header(session: "s1"))
            #expect(try first.nextReply()?["lastSeq"] as? Int == 0)
            for sequence in 1...3 { try first.send(line: SessionLines.action(sequence)) }
        }
        await waitUntil("the daemon notes the disconnection") { daemon.count("session.disconnected") == 1 }
        #expect(folder.lines(of: "counter-s1.jsonl").last?.contains(#""reason":"disconnected""#) == true)

        // When the app reconnects with the same session id
        let second = try RawClient(socket: folder.socket)
        try second.send(line: SessionLines.header(session: "s1"))
        let welcome = try second.nextReply()

        // Then it is told what is stored, and its lines follow on in the same file
        #expect(welcome?["kind"] as? String == "welcome")
        #expect(welcome?["lastSeq"] as? Int == 3)
        // A second connection for a session being recorded is refused
        let intruder = try RawClient(socket: folder.socket)
        try intruder.send(line: SessionLines.header(session: "s1"))
        #expect((try intruder.nextReply()?["reason"] as? String)?.contains("another connection") == true)
        #expect(try intruder.nextReply() == nil)

        for sequence in 4...5 { try second.send(line: SessionLines.action(sequence)) }
        try second.send(line: SessionLines.end(actions: 5))
        await waitUntil("the end is stored") { folder.lines(of: "counter-s1.jsonl").count == 7 }
        let lines = folder.lines(of: "counter-s1.jsonl")
        #expect(lines.filter { $0.contains(#""kind":"session""#) }.count == 1)
        #expect(Array(lines[1...5]) == (1...5).map(SessionLines.action))
        #expect(try Session(contentsOf: folder.sessions + "/counter-s1.jsonl").actions.count == 5)
        #expect(await daemon.stop() == 0)
    }

    @Test func sigtermClosesOpenSessionsAndRemovesTheSocket() async throws {
        // Given a client in the middle of a session
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let daemon = try await DaemonProcess(folder: folder)
        let client = try RawClient.startingSession("open", socket: folder.socket)
        try client.send(line: SessionLines.action(1))
        await waitUntil("the action is stored") { folder.lines(of: "counter-open.jsonl").count == 2 }

        // When the daemon gets SIGTERM
        #expect(await daemon.stop() == 0)

        // Then the session ends properly and the socket is gone
        let lines = folder.lines(of: "counter-open.jsonl")
        #expect(lines.count == 3)
        let end = try SessionEvent(jsonValue: JSONValue(parsing: lines[2]))
        #expect(end == .end(EndEvent(reason: .disconnected, actions: 1, dropped: 0, time: 0.001)))
        #expect(!FileManager.default.fileExists(atPath: folder.socket))
        #expect(daemon.count("daemon.stopped") == 1)
    }

    @Test func aStopEndsTheIndexBeingRefreshedFirstSoItsLogEndsWithTheStop() async throws {
        // Given a folder of many sessions, which the daemon starts to index as it starts
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let session = try Data(
            contentsOf: Executables.packageRoot.appendingPathComponent("samples/sessions/rehearsals-week.jsonl"))
        try FileManager.default.createDirectory(atPath: folder.sessions, withIntermediateDirectories: true)
        for number in 0..<60 { try session.write(to: URL(fileURLWithPath: folder.sessions + "/week-\(number).jsonl")) }
        let daemon = try await DaemonProcess(folder: folder)

        // When it is stopped at once
        #expect(await daemon.stop() == 0)

        // Then the refresh under way was stopped (or had finished) before the daemon stopped, nothing is logged
        // after the stop, and no unfinished index file is left
        let events = daemon.entries.compactMap { $0["event"] as? String }
        let refresh = try #require(events.lastIndex { $0 == "index.refresh_stopped" || $0 == "index.refreshed" })
        #expect(refresh < events.lastIndex(of: "daemon.stopped") ?? -1)
        #expect(events.last == "daemon.stopped")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.sessions).filter { $0.hasSuffix(".tmp") }.isEmpty)
    }
}
