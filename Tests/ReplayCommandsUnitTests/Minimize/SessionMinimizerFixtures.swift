import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay

@testable import ReplayCommands

/// Replays in this process, as a host built from the posting feature would: `states` through a re-record, `check`
/// through the engine (without drift: the fixtures' values all decode).
struct InProcessReplayer: CandidateReplaying {
    var engine: ReplayEngine

    func states(of session: SessionInput, timeout: Double) throws(CLIError) -> ReplayHostClient.Exchange {
        do {
            let replayed = try engine.rerecord(try Session(contentsOf: session.path))
            return .answered(
                ReplayHostClient.Answer(
                    stores: ["posting"], result: HostMessage.Result(replayed: replayed.actions.count), lines: [],
                    states: replayed.actions.map { ReplayHostClient.ReplayedState(step: $0.sequence, name: $0.name, state: $0.state) }))
        } catch {
            throw CLIError(.host, "\(error)", file: session.displayName)
        }
    }

    func check(_ session: SessionInput, ignoring: [JSONPathPattern], timeout: Double) throws(CLIError) -> ReplayHostClient.Outcome {
        do {
            let header = try Session(contentsOf: session.path).header
            return ReplayHostClient.Outcome(
                header: header, drift: SchemaDrift(jsonValue: .object([:]), header: header), report: try engine.replay(path: session.path))
        } catch {
            throw CLIError(.host, "\(error)", file: session.displayName)
        }
    }
}

/// A temporary folder holding `session` as `posting.jsonl`, for `body`, removed after.
func withSessionFile(_ session: Session, _ body: (String) throws -> Void) throws {
    let folder = NSTemporaryDirectory() + "minimize-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/posting.jsonl"
    try Data(session.ndjson).write(to: URL(fileURLWithPath: path))
    try body(path)
}
