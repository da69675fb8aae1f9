import Foundation
import SampleReplayStores
import StoreKitCore
import StoreKitReplay
import Testing

/// A line whose sequence number skips past what the session covers is stored after a `rejected` gap replayd writes
/// for the hole, so one rejected line does not lose the rest of the session and the file still reads to its end.
@Suite struct ReplaydSkipTests {
    @Test func afterATooLongActionMidSessionTheRestIsStoredAfterARejectedGapAndReplaysAsIncomplete() async throws {
        // Given a daemon with a small line limit and a session with three actions stored
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let daemon = try await DaemonProcess(folder: folder, arguments: ["--max-line-bytes", "1024"])
        let client = try RawClient.startingSession("t", socket: folder.socket)
        for sequence in 1...3 { try client.send(line: SessionLines.action(sequence)) }

        // When action 4 is over the limit, and actions 5 to 8 follow as the recorder sends them
        let padding = String(repeating: "x", count: 2000)
        try client.send(line: SessionLines.action(4, state: #"{"count":4,"step":1,"pad":"\#(padding)"}"#))
        for sequence in 5...8 { try client.send(line: SessionLines.action(sequence)) }

        // Then action 4 alone is rejected (the header is line 1)
        let reply = try client.nextReply()
        #expect(reply?["kind"] as? String == "rejected")
        #expect(reply?["line"] as? Int == 5)
        #expect((reply?["reason"] as? String)?.contains("over the limit of 1024") == true, "\(reply ?? [:])")

        // And the file holds a `rejected` gap for 4 written by replayd, then every later action
        let gap =
            #"{"count":1,"from":4,"kind":"gap","message":"replayd rejected 1 line for this session since seq 3 (see its log)","reason":"rejected","to":4}"#
        var stored = [SessionLines.header(session: "t")] + (1...3).map(SessionLines.action)
        stored += [gap] + (5...8).map(SessionLines.action)
        await waitUntil("the later actions are stored") { folder.lines(of: "counter-t.jsonl").count == stored.count }
        #expect(folder.lines(of: "counter-t.jsonl") == stored)

        // And when the app goes away, the end replayd writes counts 8 actions, 1 of them dropped
        client.close()
        await waitUntil("the daemon notes the disconnection") { daemon.count("session.disconnected") == 1 }
        let end = #"{"actions":8,"dropped":1,"kind":"end","reason":"disconnected","time":0.008}"#
        #expect(folder.lines(of: "counter-t.jsonl") == stored + [end])

        // And the session reader reads it to the end, and replay gets through it all with a gap: incomplete
        let path = folder.sessions + "/counter-t.jsonl"
        #expect(try ReplaydReaderAgreementTests.readToTheEnd(path) == stored.count + 1)
        let report = try ReplayEngine(stores: SampleStores.all).replay(path: path)
        let expectedGap = GapEvent(
            firstSequence: 4, lastSequence: 4, reason: .rejected,
            message: "replayd rejected 1 line for this session since seq 3 (see its log)")
        #expect(report.verdict == .incomplete(gaps: [expectedGap]))
        #expect(report.finalState == .object(["count": .integer(8), "step": .integer(1)]))
        #expect(await daemon.stop() == 0)
    }

    @Test func aClientThatSkipsWithNoRejectionGetsAGapSayingItSentNone() async throws {
        // Given a session with two actions stored
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let daemon = try await DaemonProcess(folder: folder)
        let client = try RawClient.startingSession("k", socket: folder.socket)

        // When the client sends action 5 after 2, then a gap from 8 after 5, with nothing rejected
        let sent = [
            SessionLines.action(1), SessionLines.action(2), SessionLines.action(5), SessionLines.gap(8, 9),
            SessionLines.action(10), SessionLines.end(actions: 10),
        ]
        for line in sent { try client.send(line: line) }

        // Then replayd stores a `rejected` gap before each skip, saying what the client sent, and nothing else changes
        let stored = [SessionLines.header(session: "k")] + sent[0..<2] + [
            #"{"count":2,"from":3,"kind":"gap","message":"the client sent seq 5 after 2 with no gap line","reason":"rejected","to":4}"#,
            sent[2],
            #"{"count":2,"from":6,"kind":"gap","message":"the client sent a gap from 8 after 5","reason":"rejected","to":7}"#,
        ] + sent[3...]
        await waitUntil("the end is stored") { folder.lines(of: "counter-k.jsonl").count == stored.count }
        #expect(folder.lines(of: "counter-k.jsonl") == stored)
        #expect(try ReplaydReaderAgreementTests.readToTheEnd(folder.sessions + "/counter-k.jsonl") == stored.count)
        #expect(daemon.count("line.rejected") == 0)
        #expect(await daemon.stop() == 0)
    }

    @Test func anEndCountingARejectedLastActionIsStoredAfterARejectedGapForIt() async throws {
        // Given a session with two actions stored
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let daemon = try await DaemonProcess(folder: folder)
        let client = try RawClient.startingSession("e", socket: folder.socket)
        for sequence in 1...2 { try client.send(line: SessionLines.action(sequence)) }

        // When action 3 is rejected (a duplicate key) and the client's end counts it
        try client.send(line: SessionLines.action(3, state: #"{"count":3,"step":1,"step":2}"#))
        try client.send(line: SessionLines.end(actions: 3))

        // Then replayd stores a `rejected` gap for 3 before the end, which it stores as the client sent it
        let stored = [SessionLines.header(session: "e")] + (1...2).map(SessionLines.action) + [
            #"{"count":1,"from":3,"kind":"gap","message":"replayd rejected 1 line for this session since seq 2 (see its log)","reason":"rejected","to":3}"#,
            SessionLines.end(actions: 3),
        ]
        await waitUntil("the end is stored") { folder.lines(of: "counter-e.jsonl").count == stored.count }
        #expect(folder.lines(of: "counter-e.jsonl") == stored)

        // And the reader reads it to its end, where the session is incomplete, not a match on two actions
        let path = folder.sessions + "/counter-e.jsonl"
        #expect(try ReplaydReaderAgreementTests.readToTheEnd(path) == stored.count)
        let report = try ReplayEngine(stores: SampleStores.all).replay(path: path)
        let expectedGap = GapEvent(
            firstSequence: 3, lastSequence: 3, reason: .rejected,
            message: "replayd rejected 1 line for this session since seq 2 (see its log)")
        #expect(report.verdict == .incomplete(gaps: [expectedGap]))
        #expect(await daemon.stop() == 0)
    }

    @Test func anEndCountingActionsTheClientNeverSentGetsAGapSayingSo() async throws {
        // Given a session with one action stored
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let daemon = try await DaemonProcess(folder: folder)
        let client = try RawClient.startingSession("n", socket: folder.socket)
        try client.send(line: SessionLines.action(1))

        // When the client's end counts four actions, with nothing rejected
        try client.send(line: SessionLines.end(actions: 4))

        // Then replayd stores a `rejected` gap for 2...4 saying so, before the end
        let stored = [
            SessionLines.header(session: "n"), SessionLines.action(1),
            #"{"count":3,"from":2,"kind":"gap","message":"the client's end counts 4 actions, but it sent no line for 2...4","reason":"rejected","to":4}"#,
            SessionLines.end(actions: 4),
        ]
        await waitUntil("the end is stored") { folder.lines(of: "counter-n.jsonl").count == stored.count }
        #expect(folder.lines(of: "counter-n.jsonl") == stored)
        #expect(try ReplaydReaderAgreementTests.readToTheEnd(folder.sessions + "/counter-n.jsonl") == stored.count)
        #expect(daemon.count("line.rejected") == 0)
        #expect(await daemon.stop() == 0)
    }
}
