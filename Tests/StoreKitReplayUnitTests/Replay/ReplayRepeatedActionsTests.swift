import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import Testing

/// A dial whose actions repeat: more kinds of them than replay keeps decoded.
private enum Dial {
    struct State: Codable, Equatable, Sendable {
        var position = 0
        var marks: [String] = []
    }

    enum Action: Codable, Equatable, Sendable {
        case turn(by: Int)
        case mark(String)
        case reset
    }

    static let recorded = Reducer<State, Action> { state, action in
        switch action {
        case .turn(let steps): state.position += steps
        case .mark(let label): state.marks.append("\(label)@\(state.position)")
        case .reset: state.position = 0
        }
    }

    /// The reducer after a change: a turn by 3 turns by 2.
    static let broken = Reducer<State, Action> { state, action in
        recorded.reduce(&state, action == .turn(by: 3) ? .turn(by: 2) : action)
    }

    /// Seven kinds of action, three rounds: each action is met again after six others.
    static let actions: [Action] = Array(
        repeating: [.turn(by: 1), .turn(by: 3), .mark("a"), .turn(by: -1), .mark("b"), .reset, .turn(by: 2)], count: 3
    ).flatMap { $0 }

    static func replay(_ reducer: Reducer<State, Action>) throws -> ReplayReport {
        let transport = MemoryTransport()
        let store = Store(initialState: State(), reducer: recorded)
        let recorder = store.startRecording(.init(storeID: "dial", app: AppInfo(name: "Dial")), to: transport)
        for action in actions { store.dispatch(action) }
        recorder.finishWaitingGenerously()
        let reader = SessionReader(bytes: transport.data, source: "dial.jsonl")
        let engine = ReplayEngine(
            stores: [ReplayableStore(id: "dial", reducer: reducer)], options: .init(findAllDivergences: true))
        return try engine.replay(reader: reader)
    }
}

@Suite struct ReplayRepeatedActionsTests {
    @Test func actionsMetAgainReplayAsTheyWereRecorded() throws {
        // Given a session whose seven kinds of action come round three times, replayed through its own reducer
        // Then every step matches
        #expect(try Dial.replay(Dial.recorded).verdict == .match)

        // When a turn by 3 turns by 2
        let report = try Dial.replay(Dial.broken)
        // Then exactly the turns by 3 diverge (replay goes on from the recorded state), each by one position
        #expect(report.divergences.map(\.step) == [2, 9, 16])
        let turnBy3 = try JSONValue(parsing: #"{"turn":{"by":3}}"#)
        #expect(report.divergences.map(\.action) == [turnBy3, turnBy3, turnBy3])
        #expect(report.divergences.map(\.diff.changes.count) == [1, 1, 1])
        #expect(report.divergences.map { $0.recorded["position"] } == [.integer(4), .integer(6), .integer(6)])
        #expect(report.divergences.map { $0.replayed["position"] } == [.integer(3), .integer(5), .integer(5)])
    }
}
