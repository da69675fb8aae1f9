import StoreKitCore
import StoreKitJSON
import Testing

@Suite struct DaemonReplyTests {
    /// The lines a protocol-2 `replayd` has always written (canonical JSON, keys sorted), with what they mean.
    private static let todaysLines: [(line: String, reply: DaemonReply)] = [
        (
            #"{"file":"todos-s1.jsonl","kind":"welcome","lastSeq":3,"protocol":2,"sessionId":"s1"}"#,
            .welcome(.init(sessionID: "s1", lastSequence: 3, file: "todos-s1.jsonl", protocolVersion: 2))
        ),
        (#"{"kind":"persisted","seq":12}"#, .persisted(seq: 12)),
        (
            #"{"kind":"rejected","line":1,"reason":"the first line must be a session header (kind 'session')"}"#,
            .rejected(line: 1, reason: "the first line must be a session header (kind 'session')")
        ),
    ]

    @Test func todaysLinesDecodeToTheTypedRepliesAndEncodeToTheSameBytes() throws {
        for (line, reply) in Self.todaysLines {
            // Given a line as the daemon writes it
            // When it is read, and the typed reply written
            // Then each gives the other, byte for byte
            #expect(try DaemonReply(line: Array(line.utf8)) == reply, "\(line)")
            #expect(reply.line == Array(line.utf8) + [0x0A], "\(line)")
        }
    }

    @Test func everyReplyRoundTrips() throws {
        let replies: [DaemonReply] = [
            .welcome(.init(sessionID: "a \"quoted\" id é", lastSequence: 0, file: "todos-a%20.jsonl")),
            .welcome(.init(sessionID: "s", lastSequence: 9, file: "f", protocolVersion: DaemonProtocol.firstVersion)),
            .persisted(seq: 0), .persisted(seq: Int(Int32.max) + 1),
            .rejected(line: 42, reason: "not JSON: unexpected '\u{1}' at byte 3\n"),
        ]
        for reply in replies {
            #expect(try DaemonReply(line: reply.line) == reply, "\(reply)")
        }
    }

    @Test func theBytesAreThoseOfTheHandBuiltObjectsTheDaemonWroteBefore() {
        // Given replies holding strings that need escaping and non-ASCII text
        for text in ["plain", "quote \" and backslash \\", "tab\tnewline\n\u{7f}\u{0}", "é e\u{301} 🎵", ""] {
            let welcome = JSONValue.object([
                "kind": .string("welcome"), "sessionId": .string(text), "lastSeq": .integer(5),
                "file": .string(text), "protocol": .integer(2),
            ])
            let rejected = JSONValue.object(["kind": .string("rejected"), "line": .integer(7), "reason": .string(text)])

            // Then the typed replies write the same bytes as the JSON objects the daemon built by hand
            #expect(
                DaemonReply.welcome(.init(sessionID: text, lastSequence: 5, file: text)).line
                    == welcome.canonicalBytes() + [0x0A])
            #expect(DaemonReply.rejected(line: 7, reason: text).line == rejected.canonicalBytes() + [0x0A])
        }
    }

    @Test func aWelcomeWithoutProtocolIsTheFirstVersionAndConfirmsNothing() throws {
        // Given a welcome as a protocol-1 daemon writes it (no `protocol`)
        let reply = try DaemonReply(line: Array(#"{"kind":"welcome","lastSeq":7,"sessionId":"s","file":"f"}"#.utf8))

        // Then it is read as version 1, whose daemon sends no `persisted` replies
        #expect(reply == .welcome(.init(sessionID: "s", lastSequence: 7, file: "f", protocolVersion: 1)))
        guard case .welcome(let welcome) = reply else { return }
        #expect(!welcome.confirmsPersistence)
    }

    @Test func aLaterVersionIsReadAsThisOne() throws {
        // Given a welcome of a later protocol, which only adds what an older client passes over
        let reply = try DaemonReply(
            line: Array(#"{"file":"f","kind":"welcome","lastSeq":1,"protocol":3,"sessionId":"s","new":true}"#.utf8))

        // Then it is read, and its daemon confirms what it stores
        guard case .welcome(let welcome) = reply else {
            Issue.record("not a welcome: \(reply)")
            return
        }
        #expect(welcome.protocolVersion == 3)
        #expect(welcome.confirmsPersistence)
    }

    @Test(arguments: [
        (#"{"kind":"hello","protocol":2}"#, DaemonReplyError.unknownKind("hello")),
        (#"{"kind":"welcome","lastSeq":0,"sessionId":"s","file":"f","protocol":0}"#, .unsupportedVersion(0)),
        (#"{"kind":"welcome","lastSeq":0,"sessionId":"s","file":"f","protocol":-2}"#, .unsupportedVersion(-2)),
        (#"{"kind":"persisted"}"#, .malformed("seq: missing key 'seq'")),
        (#"{"kind":"rejected","line":"1","reason":"r"}"#, nil),
        (#"{"seq":3}"#, nil),
        (#"[1]"#, nil),
        (#"not json"#, nil),
    ] as [(String, DaemonReplyError?)])
    func aLineThatIsNoReplyOfThisProtocolIsANamedError(line: String, expected: DaemonReplyError?) {
        // When a line that is not a reply this client reads is decoded
        #expect {
            try DaemonReply(line: Array(line.utf8))
        } throws: { error in
            // Then the error names what is wrong: the kind, the version, or else a malformed reply
            guard let error = error as? DaemonReplyError else { return false }
            if let expected { return error == expected }
            if case .malformed = error { return true }
            return false
        }
    }
}
