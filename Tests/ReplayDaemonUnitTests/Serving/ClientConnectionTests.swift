import StoreKitCore
import StoreKitSystem
import StoreKitTestFixtures
import Testing

@testable import ReplayDaemon

@Suite struct ClientConnectionTests {
    @Test func theRepliesReachTheClientAsTheLinesOfTheSharedTypes() throws {
        // Given a connection the daemon accepted, and the client's end of it
        let (client, accepted) = try ConnectedUnixSockets.make()
        defer { try? Syscall.close(client) }
        try Syscall.setTimeouts(client, seconds: 5)
        let connection = ClientConnection(
            WorkerInbox.Accepted(fd: accepted, id: 1, peer: 0, headerDeadline: 0), maxLineBytes: 1 << 16)

        // When the daemon welcomes the session, confirms the lines up to seq 4 twice and rejects line 6
        connection.reply(.welcome(.init(sessionID: "s1", lastSequence: 3, file: "todos-s1.jsonl")))
        connection.confirmPersisted(through: 4)
        connection.confirmPersisted(through: 4)
        connection.reply(.rejected(line: 6, reason: "bad"))

        // Then the client reads today's bytes, which decode to the same typed replies (the repeated confirmation
        // is not sent)
        let expected = [
            #"{"file":"todos-s1.jsonl","kind":"welcome","lastSeq":3,"protocol":2,"sessionId":"s1"}"#,
            #"{"kind":"persisted","seq":4}"#, #"{"kind":"rejected","line":6,"reason":"bad"}"#,
        ].map { $0 + "\n" }.joined()
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while received.count < expected.utf8.count {
            let count = try Syscall.read(client, into: &buffer)
            guard count > 0 else { break }
            received += buffer[..<count]
        }
        #expect(String(decoding: received, as: UTF8.self) == expected)
        let replies = try received.split(separator: 0x0A).map { try DaemonReply(line: $0) }
        #expect(
            replies == [
                .welcome(.init(sessionID: "s1", lastSequence: 3, file: "todos-s1.jsonl", protocolVersion: 2)),
                .persisted(seq: 4), .rejected(line: 6, reason: "bad"),
            ])
    }
}
