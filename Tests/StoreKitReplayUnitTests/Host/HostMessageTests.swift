import StoreKitCore
import StoreKitJSON
import Testing

@testable import StoreKitReplay

/// Every message of the replay-host protocol is written and read by the same declarations: it reads back as itself,
/// the lines today's hosts and CLIs send read as their messages byte for byte, and a line that is not one is a named
/// error quoting it.
@Suite struct HostMessageTests {
    private static let header = #"{"app":{"build":"1","name":"SampleApp","schemaVersion":"1","version":"1.0"},"format":1,"host":"vm","initialState":{"count":0},"kind":"session","metadata":{},"pid":1,"sessionId":"s","startedAt":"2026-11-23T10:00:00.000Z","storeId":"counter"}"#

    /// Lines as the protocol's hosts write them (docs/replay-host-protocol.md), each with the message it is.
    private static let lines: [(String, HostMessage)] = [
        (#"{"kind":"hello","protocol":7,"stores":["counter","todos"]}"#, .hello(stores: ["counter", "todos"])),
        (
            #"{"kind":"state","name":"todo.toggle","seq":3,"state":{"count":2,"todos":[{"id":"A","t":"é"}]}}"#,
            .state(
                HostMessage.ReplayedState(
                    seq: 3, name: "todo.toggle",
                    state: .object(["count": .integer(2), "todos": .array([.object(["id": .string("A"), "t": .string("é")])])])))
        ),
        (
            #"{"kind":"line","line":{"actions":1,"dropped":0,"kind":"end","reason":"finished","time":0.5}}"#,
            .line(
                .object([
                    "actions": .integer(1), "dropped": .integer(0), "kind": .string("end"), "reason": .string("finished"),
                    "time": .double(0.5),
                ]))
        ),
        (#"{"kind":"result","rerecorded":7}"#, .result(HostMessage.Result(rerecorded: 7))),
        (#"{"kind":"result","replayed":0}"#, .result(HostMessage.Result(replayed: 0))),
        (
            #"{"kind":"result","replayed":2,"typeNotes":{"dates":[["todos",[],"createdAt"]]}}"#,
            .result(
                HostMessage.Result(
                    replayed: 2,
                    typeNotes: .object(["dates": .array([.array([.string("todos"), .array([]), .string("createdAt")])])])))
        ),
        (#"{"failure":"step 1: no","kind":"result"}"#, .result(HostMessage.Result(failure: "step 1: no"))),
        (
            #"{"header":\#(header),"kind":"result","session":2,"unknownStore":["todos"]}"#,
            .result(HostMessage.Result(session: 2, header: try! JSONValue(parsing: header), unknownStore: ["todos"]))
        ),
        (
            #"{"drift":{"checkedValues":2,"entries":[]},"header":\#(header),"kind":"result","report":{"verdict":"match"},"session":0}"#,
            .result(
                HostMessage.Result(
                    session: 0, header: try! JSONValue(parsing: header),
                    drift: .object(["checkedValues": .integer(2), "entries": .array([])]),
                    report: .object(["verdict": .string("match")])))
        ),
        (#"{"kind":"error","line":4,"message":"bad line","session":1}"#, .error(HostMessage.Failure(message: "bad line", line: 4, session: 1))),
        (#"{"kind":"error","message":"cannot use the progress board"}"#, .error(HostMessage.Failure(message: "cannot use the progress board"))),
    ]

    @Test(arguments: lines.indices)
    func aLineReadsAsItsMessageAndTheMessageWritesTheSameBytes(_ index: Int) throws {
        let (line, message) = Self.lines[index]
        #expect(try HostMessage(line: Array(line.utf8)) == message)
        #expect(String(decoding: message.lineBytes(), as: UTF8.self) == line + "\n")
    }

    @Test(arguments: lines.indices)
    func aMessageWritesWhatTheLineBuiltAsATreeWrote(_ index: Int) throws {
        // The bytes are the canonical bytes the hosts wrote before the messages were typed.
        let (line, message) = Self.lines[index]
        #expect(message.lineBytes() == (try JSONValue(parsing: line)).canonicalBytes() + [0x0A])
    }

    @Test func fieldsAMessageDoesNotKnowAreIgnored() throws {
        let line = #"{"colour":"red","kind":"hello","protocol":7,"stores":[]}"#
        #expect(try HostMessage(line: Array(line.utf8)) == .hello(stores: []))
    }

    @Test(arguments: [
        (#"{"kind":"step","seq":1}"#, HostProtocolError.Problem.unknownKind("step")),
        (#"{"kind":"hello","protocol":4,"stores":[]}"#, .unsupportedVersion(4)),
        (#"{"kind":"hello","stores":[]}"#, .unsupportedVersion(nil)),
        (#"{"kind":"hello","protocol":"5","stores":[]}"#, .unsupportedVersion(nil)),
        ("Fatal error: oops", .notProtocol),
        (#"{"seq":1}"#, .notProtocol),
        (#"{"kind":"state","name":"a","state":{}}"#, .malformed(kind: "state", reason: "missing key 'seq'")),
        (#"{"kind":"result","session":"0"}"#, .malformed(kind: "result", reason: "expected an integer, found a string at session")),
    ])
    func aLineThatIsNotAMessageIsANamedErrorQuotingIt(_ line: String, _ problem: HostProtocolError.Problem) throws {
        #expect {
            try HostMessage(line: Array(line.utf8))
        } throws: { error in
            guard let error = error as? HostProtocolError, error.excerpt == line else { return false }
            if case .malformed(let kind, _) = problem, case .malformed(kind, _) = error.problem { return true }
            return error.problem == problem
        }
    }

    @Test func theErrorQuotesTheStartOfALongLine() throws {
        let line = #"{"kind":"gossip","text":""# + String(repeating: "x", count: 1000) + #""}"#
        let error = try #require(throws: HostProtocolError.self) { try HostMessage(line: Array(line.utf8)) }
        #expect(error.problem == .unknownKind("gossip"))
        #expect(error.excerpt == String(line.prefix(120)))
        #expect(error.description == "an unknown message kind 'gossip': '\(line.prefix(120))'")
    }

    @Test func aCheckResultWhoseReportDoesNotReadIsAProtocolError() throws {
        let line = #"{"drift":{"checkedValues":0,"entries":[]},"header":\#(Self.header),"kind":"result","report":{"verdict":7},"session":0}"#
        guard case .result(let result) = try HostMessage(line: Array(line.utf8)) else {
            Issue.record("not a result")
            return
        }
        let header = try result.sessionHeader()
        #expect(header.storeID == "counter")
        #expect(throws: HostProtocolError.Problem.self) { try result.replayReport(header: header) }
        #expect(throws: HostProtocolError.Problem.self) { try HostMessage.Result(session: 0).sessionHeader() }
    }
}
