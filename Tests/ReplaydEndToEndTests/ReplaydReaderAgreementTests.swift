import Foundation
import StoreKitCore
import StoreKitReplay
import Testing

/// What replayd stores, the session reader reads; what the reader refuses, replayd rejects with the reason.
@Suite struct ReplaydReaderAgreementTests {
    /// A session's lines after its header (initial state `{"count":0,"step":1}`), the one line among them the
    /// daemon must reject, and words its reason must contain.
    struct Case: CustomStringConvertible, Sendable {
        var description: String
        var lines: [String]
        var rejected: Int
        var reason: String
        /// The actions the client's `end` counts: no more than the stored lines cover, so it needs no gap.
        var actions = 2
    }

    static let cases: [Case] = [
        Case(
            description: "a duplicate key below the top level",
            lines: [SessionLines.action(1), SessionLines.action(2, state: #"{"count":2,"count":3,"step":1}"#)],
            rejected: 1, reason: "duplicate key 'count'", actions: 1),
        Case(
            description: "a top-level key spelled once plainly and once with a \\u escape",
            lines: [
                SessionLines.action(1),
                #"{"action":{},"kind":"action","name":"increment","seq":2,"state":{"count":2,"step":1},"time":0.002,"\u006eame":"x"}"#,
            ],
            rejected: 1, reason: "duplicate key 'name'", actions: 1),
        Case(
            description: "a nested key spelled once plainly and once with a \\u escape",
            lines: [SessionLines.action(1, state: #"{"count":1,"c\u006funt":2,"step":1}"#), SessionLines.action(1)],
            rejected: 0, reason: "duplicate key 'count'", actions: 1),
        Case(
            description: "a nested key spelled composed and decomposed, one String for Swift",
            lines: [SessionLines.action(1, state: "{\"count\":1,\"caf\u{E9}\":1,\"cafe\u{301}\":2,\"step\":1}")],
            rejected: 0, reason: "duplicate key 'caf", actions: 0),
        Case(
            description: "a patch aimed at a member that does not exist",
            lines: [
                SessionLines.action(1, patch: #"[{"op":"replace","path":"/count","value":1}]"#),
                SessionLines.action(2, patch: #"[{"op":"replace","path":"/missing","value":2}]"#),
                SessionLines.action(2, patch: #"[{"op":"replace","path":"/count","value":2}]"#),
            ],
            rejected: 1, reason: "/missing"),
        Case(
            description: "a patch after a gap",
            lines: [
                SessionLines.action(1), SessionLines.gap(2, 3),
                SessionLines.action(4, patch: #"[{"op":"replace","path":"/count","value":4}]"#),
                SessionLines.action(4),
            ],
            rejected: 2, reason: "a gap came before it"),
        Case(
            description: "a sequence number that goes backwards",
            lines: [SessionLines.action(1), SessionLines.action(2), SessionLines.action(1), SessionLines.action(3)],
            rejected: 2,
            reason: "seq 1 repeats or goes backwards: the lines before it cover sequence numbers up to 2"),
        Case(
            description: "a gap that overlaps the sequence numbers already covered",
            lines: [SessionLines.action(1), SessionLines.action(2), SessionLines.gap(2, 3), SessionLines.action(3)],
            rejected: 2,
            reason: "gap 2...3 does not start right after the sequence numbers already covered (up to 2); "
                + "it must start at 3"),
        Case(
            description: "a sequence number that repeats",
            lines: [SessionLines.action(1), SessionLines.action(1), SessionLines.action(2)],
            rejected: 1, reason: "seq 1 repeats or goes backwards: the lines before it cover sequence numbers up to 1"),
    ]

    @Test(arguments: cases)
    func aLineTheReaderWouldRefuseIsRejectedWithTheReasonAndTheStoredFileReads(_ session: Case) async throws {
        // Given a daemon and a client whose session has started
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let daemon = try await DaemonProcess(folder: folder)
        let client = try RawClient.startingSession("s", socket: folder.socket)

        // When it sends the lines with a bad one among them
        let lines = session.lines + [SessionLines.end(actions: session.actions)]
        try client.send(lines: lines)

        // Then that line is rejected by its number (the header is line 1) with the reason, and logged
        let reply = try client.nextReply()
        #expect(reply?["kind"] as? String == "rejected")
        #expect(reply?["line"] as? Int == session.rejected + 2)
        let reason = reply?["reason"] as? String ?? ""
        #expect(reason.contains(session.reason), "\(reason)")
        await waitUntil("the rejection is logged") { daemon.count("line.rejected") == 1 }

        // And every other line is stored, and the session reader reads the file to its end
        var stored = [SessionLines.header(session: "s")] + lines
        stored.remove(at: session.rejected + 1)
        await waitUntil("the other lines are stored") { folder.lines(of: "counter-s.jsonl").count == stored.count }
        #expect(folder.lines(of: "counter-s.jsonl") == stored)
        #expect(try Self.readToTheEnd(folder.sessions + "/counter-s.jsonl") == stored.count)
        #expect(await daemon.stop() == 0)
    }

    @Test func patchesApplyToTheLastStateAcrossReadsAndAreStored() async throws {
        // Given a session whose full state arrived in a read of its own
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let daemon = try await DaemonProcess(folder: folder)
        let client = try RawClient.startingSession("p", socket: folder.socket)
        try client.send(line: SessionLines.action(1, state: #"{"count":1,"step":1,"tags":{"a":1}}"#))
        await waitUntil("the full state is stored") { folder.lines(of: "counter-p.jsonl").count == 2 }

        // When patches follow, each against the state before it
        let patches = [
            SessionLines.action(2, patch: #"[{"op":"remove","path":"/tags/a"}]"#),
            SessionLines.action(3, patch: #"[{"op":"add","path":"/tags/b","value":2}]"#),
            SessionLines.action(4, patch: #"[{"op":"remove","path":"/tags/a"}]"#),
            SessionLines.action(4, patch: #"[{"op":"replace","path":"/tags/b","value":4}]"#),
        ]
        for line in patches { try client.send(line: line) }

        // Then those that apply are stored, the one aimed at a member removed before is rejected, and the reader
        // reads the states the patches make
        let reply = try client.nextReply()
        #expect(reply?["line"] as? Int == 5)
        #expect((reply?["reason"] as? String)?.contains("/tags/a") == true, "\(reply ?? [:])")
        await waitUntil("the patches are stored") { folder.lines(of: "counter-p.jsonl").count == 5 }
        let session = try Session(contentsOf: folder.sessions + "/counter-p.jsonl")
        #expect(session.actions.last?.state == .object(["count": .integer(1), "step": .integer(1), "tags": .object(["b": .integer(4)])]))
        #expect(await daemon.stop() == 0)
    }

    @Test func afterAReconnectAPatchBeforeAFullStateIsRejectedAskingForOne() async throws {
        // Given a session whose client vanished after two actions
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let daemon = try await DaemonProcess(folder: folder)
        do {
            let first = try RawClient.startingSession("r", socket: folder.socket)
            for sequence in 1...2 { try first.send(line: SessionLines.action(sequence)) }
        }
        await waitUntil("the daemon notes the disconnection") { daemon.count("session.disconnected") == 1 }

        // When the app reconnects and sends a patch, then a full state and a patch
        let second = try RawClient.startingSession("r", socket: folder.socket)
        try second.send(line: SessionLines.action(3, patch: #"[{"op":"replace","path":"/count","value":3}]"#))
        try second.send(line: SessionLines.action(3))
        try second.send(line: SessionLines.action(4, patch: #"[{"op":"replace","path":"/count","value":4}]"#))
        try second.send(line: SessionLines.end(actions: 4))

        // Then the first patch is rejected with a reason that says to send a full state, the rest is stored, and
        // the file reads to its end
        let reply = try second.nextReply()
        #expect(reply?["line"] as? Int == 2)
        #expect((reply?["reason"] as? String)?.contains("send a full 'state'") == true, "\(reply ?? [:])")
        await waitUntil("the end is stored") { folder.lines(of: "counter-r.jsonl").last?.contains(#""finished""#) == true }
        #expect(try Self.readToTheEnd(folder.sessions + "/counter-r.jsonl") == 6)
        #expect(await daemon.stop() == 0)
    }

    @Test func aLineOfExactlyTheLongestTheDaemonAcceptsIsReadByVerify() async throws {
        // Given a daemon with the default limit, which is the session format's
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let daemon = try await DaemonProcess(folder: folder)
        let client = try RawClient.startingSession("longest", socket: folder.socket)

        // When an action line of exactly that many bytes is sent
        let shell = SessionLines.action(1, state: #"{"count":1,"pad":"","step":1}"#)
        let padding = String(repeating: "x", count: SessionFormat.defaultMaxLineBytes - shell.utf8.count)
        let longest = SessionLines.action(1, state: #"{"count":1,"pad":"\#(padding)","step":1}"#)
        #expect(longest.utf8.count == SessionFormat.defaultMaxLineBytes)
        try client.send(line: longest)
        try client.send(line: SessionLines.end(actions: 1))

        // Then it is stored, and `replay-cli verify` reads the file
        let expectedBytes = [SessionLines.header(session: "longest"), longest, SessionLines.end(actions: 1)]
            .reduce(0) { $0 + $1.utf8.count + 1 }
        await waitUntil("the session is stored") { (try? folder.storedBytes()) == expectedBytes }
        let verified = try await Executables.run("replay-cli", ["verify", folder.sessions + "/counter-longest.jsonl"])
        #expect(verified.status == 0, "\(verified.stderr)")
        #expect(await daemon.stop() == 0)
    }

    /// Reads a session file with the session reader to its end; returns how many lines it read.
    static func readToTheEnd(_ path: String) throws -> Int {
        let reader = try SessionReader(path: path)
        while try reader.next() != nil {}
        return reader.lineNumber
    }
}
