import Foundation
import StoreKitCore
import StoreKitReplay
import Testing

@testable import ReplayCommands

/// The CLI reads a host's lines as the protocol's messages: the documented lines give the answer, and a line of an
/// unknown kind or another version is refused with the line quoted.
@Suite struct ReplayHostClientTests {
    /// Runs a fake host that prints `lines` after its request, for a `states` request, and returns what the client made
    /// of it.
    private func run(printing lines: [String]) throws -> Result<ReplayHostClient.Answer, CLIError> {
        let folder = NSTemporaryDirectory() + "host-client-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let script = "#!/bin/sh\n" + lines.map { "printf '%s\\n' '\($0)'\n" }.joined()
        try Data(script.utf8).write(to: URL(fileURLWithPath: folder + "/host.sh"))
        try Data("{}\n".utf8).write(to: URL(fileURLWithPath: folder + "/s.jsonl"))
        // The shell reads the script rather than the kernel executing it: a file just written can be "busy" (ETXTBSY)
        // while a process another test forks meanwhile still holds the descriptor it was written through.
        let host = HostCommand(
            command: "/bin/sh " + folder + "/host.sh", directory: folder, build: nil, origin: .option("--host"))
        return Result { () throws(CLIError) in
            try ReplayHostClient(host: host, timeout: 10).answer(
                ReplayHostRequest(command: .states), session: SessionInput(file: folder + "/s.jsonl", displayName: "s.jsonl"))
        }
    }

    @Test func theDocumentedLinesGiveTheAnswer() throws {
        // Given a host that greets, sends two states and its result, as the protocol's hosts write them
        let answer = try run(printing: [
            #"{"kind":"hello","protocol":7,"stores":["counter","todos"]}"#,
            #"{"kind":"state","name":"increment","seq":1,"state":{"count":1}}"#,
            #"{"kind":"state","name":"reset","seq":2,"state":{"count":0}}"#,
            #"{"kind":"result","replayed":2}"#,
        ]).get()

        // Then the answer holds them
        #expect(answer.stores == ["counter", "todos"])
        #expect(
            answer.states == [
                ReplayHostClient.ReplayedState(step: 1, name: "increment", state: .object(["count": .integer(1)])),
                ReplayHostClient.ReplayedState(step: 2, name: "reset", state: .object(["count": .integer(0)])),
            ])
        #expect(answer.result == HostMessage.Result(replayed: 2))
    }

    @Test func aHostErrorIsTheSessionsError() throws {
        let outcome = try run(printing: [#"{"kind":"hello","protocol":7,"stores":[]}"#, #"{"kind":"error","line":3,"message":"bad"}"#])
        #expect(throws: CLIError.self) { try outcome.get() }
        if case .failure(let error) = outcome { #expect(error.description.contains("bad")) }
    }

    @Test(arguments: [
        (
            [#"{"kind":"hello","protocol":7,"stores":[]}"#, #"{"kind":"step","seq":1}"#],
            #"the replay host sent an unknown message kind 'step': '{"kind":"step","seq":1}' before the first step"#
        ),
        (
            [#"{"kind":"hello","protocol":7,"stores":[]}"#, #"{"kind":"state","name":"a","state":{}}"#],
            #"the replay host sent a 'state' line that does not fit the protocol (missing key 'seq'): '{"kind":"state","name":"a","state":{}}' before the first step"#
        ),
        (
            [#"{"kind":"hello","protocol":4,"stores":[]}"#],
            #"the replay host does not speak replay-host protocol 7: its first line was '{"kind":"hello","protocol":4,"stores":[]}'"#
        ),
        (
            [#"{"kind":"result","replayed":0}"#],
            #"the replay host does not speak replay-host protocol 7: its first line was '{"kind":"result","replayed":0}'"#
        ),
    ])
    func aLineOfAnUnknownKindOrVersionIsRefusedQuotingIt(_ lines: [String], _ message: String) throws {
        let outcome = try run(printing: lines)
        guard case .failure(let error) = outcome else {
            Issue.record("answered: \(outcome)")
            return
        }
        #expect(error.description == message)
    }
}
