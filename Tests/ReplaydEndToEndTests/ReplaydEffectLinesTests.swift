import Foundation
import StoreKitCore
import StoreKitReplay
import Testing

/// Format 2 through the real daemon: effect lines stored as sent, refused like any bad line, and a run continued
/// across a daemon restart.
@Suite struct ReplaydEffectLinesTests {
    @Test func aFormatTwoSessionFromARawClientIsStoredByteForByte() async throws {
        // Given a daemon and a client that sends a format 2 session: a run that calls twice and sends an action
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let daemon = try await DaemonProcess(folder: folder)
        let client = try EffectLines.startingSession("two", socket: folder.socket)
        let lines = [
            EffectLines.header(session: "two"), SessionLines.action(1), EffectLines.call(0), EffectLines.call(1),
            EffectLines.effectAction(2), EffectLines.effectEnd(calls: 2), SessionLines.end(actions: 2),
        ]

        // When it is sent
        try client.send(Array(lines.dropFirst().map { $0 + "\n" }.joined().utf8))

        // Then the file holds exactly the bytes sent, and the reader reads it with its run
        let name = "counter-two.jsonl"
        await waitUntil("the session is stored") { folder.lines(of: name).count == lines.count }
        #expect(await daemon.stop() == 0)
        let stored = try Data(contentsOf: URL(fileURLWithPath: folder.sessions + "/" + name))
        #expect(stored == Data(lines.map { $0 + "\n" }.joined().utf8))
        let session = try Session(contentsOf: folder.sessions + "/" + name)
        #expect(session.header.formatVersion == 2)
        #expect(session.events.filter { if case .call = $0 { true } else { false } }.count == 2)
        #expect(daemon.count("line.rejected") == 0)
    }

    @Test func aRefusedEffectLineIsLoggedAndRejectedLikeAnyBadLine() async throws {
        // Given a daemon and a format 2 session at its first action and call
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let daemon = try await DaemonProcess(folder: folder)
        let client = try EffectLines.startingSession("bad", socket: folder.socket)
        try client.send(line: SessionLines.action(1))
        try client.send(line: EffectLines.call(0))

        // When a call skips an index, and then the right call comes
        try client.send(line: EffectLines.call(2))
        try client.send(line: EffectLines.call(1))

        // Then the skipping call is rejected by its line number with the reader's reason, logged, and not stored
        let reply = try client.nextReply()
        #expect(reply?["kind"] as? String == "rejected")
        #expect(reply?["line"] as? Int == 4)
        #expect(reply?["reason"] as? String == "field 'index' is 2, out of order: the run's next call is 1")
        let name = "counter-bad.jsonl"
        await waitUntil("the good lines are stored") { folder.lines(of: name).count == 4 }
        await waitUntil("the rejection is logged") { daemon.count("line.rejected") == 1 }
        #expect(await daemon.stop() == 0)
        #expect(
            Array(folder.lines(of: name).prefix(4))
                == [EffectLines.header(session: "bad"), SessionLines.action(1), EffectLines.call(0), EffectLines.call(1)])
        _ = try Session(contentsOf: folder.sessions + "/" + name)
    }

    @Test func aDaemonRestartInTheMiddleOfARunsLinesContinuesTheStoredFile() async throws {
        // Given a format 2 session whose run has stored two calls when the daemon is killed
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var daemon = try await DaemonProcess(folder: folder)
        let first = try await EffectLines.startingARun("restart", calls: 2, in: folder)
        await daemon.kill9()
        first.close()

        // When it restarts and the client reconnects
        daemon = try await DaemonProcess(folder: folder, logName: "restart.log")
        let second = try RawClient(socket: folder.socket)
        try second.send(line: EffectLines.header(session: "restart"))
        let welcome = try second.nextReply()

        // Then the welcome says where the session stands, past the run's two calls, read from the stored file
        #expect(welcome?["kind"] as? String == "welcome")
        #expect(welcome?["lastSeq"] as? Int == 1)
        #expect(welcome?["effectLines"] as? Int == 2)
        // (the daemon logs the start after it sends the welcome)
        await waitUntil("the daemon logs the session's start") { daemon.count("session.started") == 1 }
        #expect(daemon.entries("session.started").last?["readAgain"] as? Bool == true)

        // And the run goes on from its third call, and the file reads to its end as one session
        try await EffectLines.finishingTheRun("restart", on: second, of: daemon, in: folder)
    }
}

extension ReplaydEffectLinesTests {
    @Test func aClientThatLeavesInTheMiddleOfARunAndComesBackContinuesWithoutTheFileBeingReadAgain() async throws {
        // Given a format 2 session whose client leaves after its run's two calls are stored
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let daemon = try await DaemonProcess(folder: folder)
        let first = try await EffectLines.startingARun("leaves", calls: 2, in: folder)
        first.close()
        await waitUntil("the daemon closed the session") { daemon.count("session.disconnected") == 1 }

        // When the client comes back
        let second = try RawClient(socket: folder.socket)
        try second.send(line: EffectLines.header(session: "leaves"))
        let welcome = try second.nextReply()

        // Then the welcome says where the session stood, from what the daemon kept, not from reading the file again
        #expect(welcome?["lastSeq"] as? Int == 1)
        #expect(welcome?["effectLines"] as? Int == 2)
        // (the daemon logs the start after it sends the welcome)
        await waitUntil("the daemon logs the session's second start") { daemon.count("session.started") == 2 }
        let started = daemon.entries("session.started").last
        #expect(started?["continued"] as? Bool == true)
        #expect(started?["readAgain"] as? Bool == false)

        // And the run goes on from its third call, and the file reads to its end as one session
        try await EffectLines.finishingTheRun("leaves", on: second, of: daemon, in: folder)
    }

    @Test func aStoredFileChangedAfterItsClientLeftIsReadAgainWhenTheClientComesBack() async throws {
        // Given a format 2 session whose client left, and whose file is then appended to by hand (a call of the run)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let daemon = try await DaemonProcess(folder: folder)
        let first = try await EffectLines.startingARun("edited", calls: 1, in: folder)
        let name = "counter-edited.jsonl"
        first.close()
        await waitUntil("the daemon closed the session") { daemon.count("session.disconnected") == 1 }
        var lines = folder.lines(of: name)
        let end = lines.removeLast()
        lines += [EffectLines.call(1), end]
        try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: folder.sessions + "/" + name))

        // When the client comes back
        let second = try RawClient(socket: folder.socket)
        try second.send(line: EffectLines.header(session: "edited"))
        let welcome = try second.nextReply()

        // Then the daemon reads the file again and counts the call added to it
        #expect(welcome?["effectLines"] as? Int == 2)
        await waitUntil("the daemon logs the session's second start") { daemon.count("session.started") == 2 }
        #expect(daemon.entries("session.started").last?["readAgain"] as? Bool == true)
        second.close()
        #expect(await daemon.stop() == 0)
    }
}

/// Format 2 lines of the made-up counter session, whose action 1 starts a run of the effect `post score`.
enum EffectLines {
    static func header(session: String) -> String {
        let header = SessionHeader(
            sessionID: session, storeID: "counter", app: AppInfo(name: "Tests", version: "1", build: "1", schemaVersion: "1"),
            startedAt: "2026-11-22T00:00:00.000Z", host: "test", pid: 1,
            initialState: .object(["count": .integer(0), "step": .integer(1)]), effects: ["post score"])
        return String(decoding: SessionEvent.header(header).line.dropLast(), as: UTF8.self)
    }

    /// Connects and starts recording `session`: sends its header and reads the welcome.
    static func startingSession(_ session: String, socket: String) throws -> RawClient {
        let client = try RawClient(socket: socket)
        try client.send(line: header(session: session))
        _ = try client.nextReply()
        return client
    }

    /// Starts recording `session`, sends action 1 and the first `calls` calls of the run it starts, and waits until
    /// they are stored.
    static func startingARun(_ session: String, calls: Int, in folder: TemporaryFolder) async throws -> RawClient {
        let client = try startingSession(session, socket: folder.socket)
        let lines = [SessionLines.action(1)] + (0..<calls).map(call)
        try client.send(Array(lines.map { $0 + "\n" }.joined().utf8))
        await waitUntil("the run's \(calls) calls are stored") {
            folder.lines(of: "counter-\(session).jsonl").count == 2 + calls
        }
        return client
    }

    /// Sends the third call of the run ``startingARun(_:calls:in:)`` started with two, its action and its end, and
    /// the session's end; stops the daemon and checks that nothing was refused and that the file reads to its end as
    /// one session of two actions and three calls.
    static func finishingTheRun(
        _ session: String, on client: RawClient, of daemon: DaemonProcess, in folder: TemporaryFolder
    ) async throws {
        let name = "counter-\(session).jsonl"
        let rest = [call(2), effectAction(2), effectEnd(calls: 3), SessionLines.end(actions: 2)]
        try client.send(Array(rest.map { $0 + "\n" }.joined().utf8))
        await waitUntil("the rest is stored") { folder.lines(of: name).count == 8 }
        #expect(await daemon.stop() == 0)
        #expect(daemon.count("line.rejected") == 0)
        let stored = try Session(contentsOf: folder.sessions + "/" + name)
        #expect(stored.events.filter { if case .call = $0 { true } else { false } }.count == 3)
        #expect(stored.actions.count == 2)
    }

    static func call(_ index: Int) -> String {
        #"{"cause":1,"effect":"post score","index":\#(index),"kind":"call","name":"score.post","result":{"value":\#(index)},"time":0.0015}"#
    }

    static func effectAction(_ sequence: Int) -> String {
        #"{"action":{"increment":{}},"cause":1,"effect":"post score","kind":"action","name":"increment","origin":"effect","seq":\#(sequence),"state":{"count":\#(sequence),"step":1},"time":0.002}"#
    }

    static func effectEnd(calls: Int) -> String {
        #"{"calls":\#(calls),"cause":1,"effect":"post score","kind":"effectEnd","outcome":"finished","sent":1,"time":0.003}"#
    }
}
