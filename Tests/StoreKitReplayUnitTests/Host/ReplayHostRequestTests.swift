import StoreKitCore
import StoreKitJSON
import Testing

@testable import StoreKitReplay

/// A request is written and read by the same declarations: the line `replay-cli` sends today reads as its request
/// and writes back the same bytes; another version or an unknown command is a named error.
@Suite struct ReplayHostRequestTests {
    /// The request of docs/replay-host-protocol.md.
    private static let line =
        #"{"command":"check","context":2,"findAll":false,"identity":{},"ignore":["todos[*].id"],"jobs":2,"lastStep":null,"migrate":false,"progress":"/tmp/replay-cli-board-81234-1F2E3D4C","protocol":7,"sessions":["/work/app/sessions/a.jsonl","/work/app/sessions/b.jsonl"]}"#

    @Test func theDocumentedRequestReadsAndWritesTheSameBytes() throws {
        let request = try ReplayHostRequest(json: try JSONValue(parsing: Self.line))
        #expect(
            request
                == ReplayHostRequest(
                    command: .check, contextActions: 2, ignoring: [try JSONPathPattern("todos[*].id")],
                    sessions: ["/work/app/sessions/a.jsonl", "/work/app/sessions/b.jsonl"], jobs: 2,
                    progress: "/tmp/replay-cli-board-81234-1F2E3D4C"))
        #expect(request.jsonValue.canonicalString == Self.line)
        #expect(try CanonicalJSONEncoder().encodeToBytes(request) == Array(Self.line.utf8))
    }

    @Test(arguments: ReplayHostRequest.Command.allCases)
    func everyCommandRoundTrips(_ command: ReplayHostRequest.Command) throws {
        let request = ReplayHostRequest(
            command: command, findAllDivergences: true, lastStep: 9, migrating: true, sessions: ["/a"], progress: nil)
        #expect(try ReplayHostRequest(json: request.jsonValue) == request)
        #expect(request.jsonValue["lastStep"] == .integer(9) && request.jsonValue["progress"] == .null)
    }

    @Test(arguments: [
        (#"{"command":"check","protocol":4}"#, HostProtocolError.Problem.unsupportedVersion(4)),
        (#"{"command":"check"}"#, .unsupportedVersion(nil)),
        (#"{"command":"replay","protocol":7}"#, .unknownCommand("replay")),
    ])
    func anotherVersionOrAnUnknownCommandIsANamedError(_ line: String, _ problem: HostProtocolError.Problem) throws {
        let json = try JSONValue(parsing: line)
        #expect {
            try ReplayHostRequest(json: json)
        } throws: { error in
            guard case .protocolError(let error) = error as? ReplayHostRequest.ReadError else { return false }
            return error.problem == problem && error.excerpt == line
        }
        #expect(try ReplayHostRequest(jsonValue: json) == nil)
    }

    @Test func aBadPatternIsThePatternsError() throws {
        let json = try JSONValue(parsing: #"{"command":"check","ignore":["todos["],"protocol":7}"#)
        #expect {
            try ReplayHostRequest(json: json)
        } throws: { error in
            if case .pattern = error as? ReplayHostRequest.ReadError { true } else { false }
        }
    }
}
