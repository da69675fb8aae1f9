import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import Testing

@testable import ReplayCommands

/// A scoreboard whose replayable effect `post score` posts each score and sends the receipt, in a version with a
/// regression: it sends the receipt plus one. Its host's answers for the sessions under `Tests/Sessions` are kept
/// there, for the end-to-end tests' fake host to print, since the samples' host has no replayable effect.
enum RegressedBoard {
    struct State: Codable, Equatable, Sendable {
        var home = 0
        var receipt: Int?
        var failure: String?
    }

    enum Action: Codable, Equatable, Sendable {
        case scored(Int)
        case posted(receipt: Int)
        case failed(String)
    }

    /// What the call's body would throw; replay never runs it.
    struct Offline: Error {}

    static let reducer = Reducer<State, Action> { state, action in
        switch action {
        case .scored(let points): state.home += points
        case .posted(let receipt): state.receipt = receipt
        case .failed(let reason): state.failure = reason
        }
    }

    /// The regression: the receipt sent is one more than the one the call gave.
    static let postScore = Effect<State, Action>("post score", replay: .rerun) { action, context in
        guard case .scored(let points) = action else { return }
        do {
            let receipt: Int = try await context.call("score.post", with: points) { _ in throw Offline() }
            context.send(.posted(receipt: receipt + 1))
        } catch {
            context.send(.failed("\(error)"))
        }
    }

    static let store = ReplayableStore(id: "board", reducer: reducer, effects: [postScore])

    /// The folder of the hand-written sessions and the answers.
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sessions")

    /// The lines a replay host with ``store`` answers a `check` of `sessions` with, as `ReplayHost` writes them.
    static func answer(_ sessions: [String]) throws -> String {
        var lines = [HostMessage.hello(stores: [store.id]).lineBytes()]
        for (index, name) in sessions.enumerated() {
            let reader = try SessionReader(path: folder.appendingPathComponent(name).path)
            let check = try ReplayEngine(stores: [store]).check(reader: reader, contextActions: 0)
            let drift = try #require(check.drift)
            let header = SessionEvent.header(check.report.header).jsonValue
            lines.append(
                HostMessage.result(HostMessage.Result(session: index, header: header, drift: drift.jsonValue, report: check.report.jsonValue))
                    .lineBytes())
        }
        return lines.map { String(decoding: $0, as: UTF8.self) }.joined()
    }
}

/// The answers the end-to-end tests' fake host prints are what a host with a replayable effect answers: re-record
/// them with `REPLAY_RECORD_ANSWERS=1`.
@Suite struct EffectHostAnswersTests {
    @Test(arguments: [
        ("board-diff.answer", ["board-effects.jsonl"]),
        ("board-check.answer", ["board-effects.jsonl", "board-format1.jsonl"]),
    ])
    func theFakeHostsAnswerIsARealHosts(_ file: String, _ sessions: [String]) throws {
        let answer = try RegressedBoard.answer(sessions)
        let path = RegressedBoard.folder.appendingPathComponent(file).path
        if ProcessInfo.processInfo.environment["REPLAY_RECORD_ANSWERS"] == "1" {
            try Data(answer.utf8).write(to: URL(fileURLWithPath: path))
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == answer)
    }

    @Test func theRegressedEffectDivergesAtTheReceipt() throws {
        let answer = try RegressedBoard.answer(["board-effects.jsonl"])
        #expect(answer.contains(#""verdict":"effectDiverged""#))
    }
}
