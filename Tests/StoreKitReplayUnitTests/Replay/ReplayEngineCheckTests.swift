import StoreKitCore
import StoreKitReplay
import StoreKitSystem
import Testing

/// A counter whose state counts how often it is decoded.
fileprivate enum Tally {
    struct State: Codable, Equatable, Sendable {
        var count: Int

        init(count: Int) { self.count = count }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            count = try container.decode(Int.self, forKey: .count)
            Tally.decodedStates.withLock { $0 += 1 }
        }

        private enum CodingKeys: String, CodingKey { case count }
    }

    enum Action: Codable, Equatable, Sendable {
        case increment
    }

    static let decodedStates = Locked(0)

    static let store = ReplayableStore(
        id: "tally", reducer: Reducer<State, Action> { state, _ in state.count += 1 })

    /// A session of three increments, its recorded states `recorded`.
    static func session(recorded: [String]) -> [UInt8] {
        var lines = [
            #"{"kind":"session","format":1,"sessionId":"s1","storeId":"tally","app":{"name":"Tally","version":"1.0","build":"1","schemaVersion":"1"},"startedAt":"2026-01-01T00:00:00.000Z","host":"h","pid":1,"initialState":{"count":0},"metadata":{}}"#
        ]
        for (index, state) in recorded.enumerated() {
            lines.append(
                #"{"kind":"action","seq":\#(index + 1),"time":0.1,"name":"increment","origin":"app","action":{"increment":{}},"state":\#(state)}"#)
        }
        return Array(lines.map { $0 + "\n" }.joined().utf8)
    }
}

/// The one-pass check (``ReplayEngine/check(reader:contextActions:)``): its drift check and its replay together.
/// Serialized: the tests read one count of decoded states.
@Suite(.serialized) struct ReplayEngineCheckTests {
    @Test func recordedStatesWithTheReplayedStatesBytesAreCountedWithoutDecodingThem() throws {
        // Given a matching session whose recorded states are the canonical bytes of the replayed ones
        Tally.decodedStates.withLock { $0 = 0 }
        let bytes = Tally.session(recorded: [#"{"count":1}"#, #"{"count":2}"#, #"{"count":3}"#])

        // When it is checked
        let check = try ReplayEngine(stores: [Tally.store])
            .check(reader: SessionReader(bytes: bytes, source: "s"), contextActions: 0)

        // Then the state is decoded only for the initial state (loaded, and checked for drift), yet every value counts
        #expect(check.report.verdict.name == "match")
        #expect(check.drift?.checkedValues == 7)
        #expect(check.drift?.entries == [])
        #expect(Tally.decodedStates.withLock { $0 } == 2)
    }

    @Test func theRecordedStateReplayStartsOverFromAfterAGapIsDecodedOnce() throws {
        // Given a session whose second action was lost in a gap, so the third starts over from its recorded state,
        // written with other bytes than the replayed state's (a member the state type does not know)
        Tally.decodedStates.withLock { $0 = 0 }
        var lines = String(decoding: Tally.session(recorded: [#"{"count":1}"#]), as: UTF8.self)
        lines += #"{"count":1,"from":2,"kind":"gap","reason":"bufferFull","to":2}"# + "\n"
        lines += #"{"kind":"action","seq":3,"time":0.3,"name":"increment","origin":"app","action":{"increment":{}},"state":{"count":3,"extra":true}}"# + "\n"

        // When it is checked
        let check = try ReplayEngine(stores: [Tally.store])
            .check(reader: SessionReader(bytes: Array(lines.utf8), source: "s"), contextActions: 0)

        // Then that state is decoded to start over from, and that reading is its drift check: the initial state
        // twice (loaded, and checked), the state after the gap once
        #expect(check.report.verdict.name == "incomplete")
        #expect(check.drift?.checkedValues == 5)
        #expect(check.drift?.entries == [])
        #expect(Tally.decodedStates.withLock { $0 } == 3)
    }

    @Test func recordedStatesWithOtherBytesAreStillDecodedAndTheirDriftFound() throws {
        // Given a session whose second recorded state has other bytes (a member the state type does not know) and
        // whose third does not decode
        Tally.decodedStates.withLock { $0 = 0 }
        let bytes = Tally.session(recorded: [#"{"count":1}"#, #"{"count":2,"extra":true}"#, #"{"total":3}"#])

        // When it is checked
        let check = try ReplayEngine(stores: [Tally.store])
            .check(reader: SessionReader(bytes: bytes, source: "s"), contextActions: 0)

        // Then those two are decoded for the drift check, and the third is drift
        #expect(check.drift?.checkedValues == 7)
        #expect(check.drift?.entries.map(\.part) == [.recordedState])
        #expect(check.drift?.entries.first?.firstStep == 3)
        #expect(Tally.decodedStates.withLock { $0 } >= 3)
    }
}
