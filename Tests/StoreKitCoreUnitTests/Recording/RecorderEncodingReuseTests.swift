import Foundation
import Synchronization
import StoreKitCore
import StoreKitReplay
import StoreKitTestFixtures
import Testing

/// A recorder reusing the encoding of unchanged parts (`reusesEncodingOfUnchangedParts`) writes what one encoding
/// everything writes.
@Suite struct RecorderEncodingReuseTests {
    @Test func aRecorderReusingUnchangedPartsWritesTheSameStatesAsOneEncodingEverything() throws {
        func record(reusing: Bool) throws -> [JSONValue?] {
            var initial = Tally.State()
            initial.items = Array(0..<300)
            let transport = MemoryTransport()
            let store = Store(initialState: initial, reducer: Tally.reducer)
            let recorder = store.startRecording(
                .init(storeID: "tally", app: AppInfo(name: "T"), reusesEncodingOfUnchangedParts: reusing), to: transport)
            for value in 1...50 { store.dispatch(value % 7 == 0 ? .label("l\(value)") : .add(value)) }
            recorder.finishWaitingGenerously()
            return try transport.session().actions.map(\.state)
        }
        let reused = try record(reusing: true)
        #expect(reused.count == 50)
        #expect(reused == (try record(reusing: false)))
    }
}

/// A state whose part holds a class changed in place, as a struct wrapping shared storage would.
private enum Gauge {
    final class Needle: Codable, Equatable, @unchecked Sendable {
        var angle = 0
        static func == (lhs: Needle, rhs: Needle) -> Bool { lhs.angle == rhs.angle }
    }

    struct Dial: Codable, Equatable, Sendable {
        var needle = Needle()
    }

    struct State: Codable, Equatable, Sendable {
        var dial = Dial()
        var labels = ["low", "high"]
        var moves = 0
    }

    enum Action: Codable, Sendable {
        case turnNeedleInPlace
        case move
    }

    static let reducer = Reducer<State, Action> { state, action in
        switch action {
        case .turnNeedleInPlace: state.dial.needle.angle += 10
        case .move: state.moves += 1
        }
    }
}

/// A shelf of jars whose encodings are counted (only one test encodes them, so the count is its own).
private enum Pantry {
    struct Jar: Codable, Equatable, Sendable {
        var label: String
        static let encodings = Mutex(0)

        func encode(to encoder: any Encoder) throws {
            Self.encodings.withLock { $0 += 1 }
            var container = encoder.singleValueContainer()
            try container.encode(label)
        }

        init(label: String) { self.label = label }
        init(from decoder: any Decoder) throws { label = try decoder.singleValueContainer().decode(String.self) }
    }

    struct State: Codable, Equatable, Sendable {
        var jars = (0..<10).map { Jar(label: "jar \($0)") }
        var opened = 0
    }

    static let reducer = Reducer<State, Int> { state, _ in state.opened += 1 }
}

@Suite struct RecorderDefaultReuseTests {
    @Test func byDefaultAnUnchangedPartOfValuesIsWrittenFromTheStateBeforesBytes() throws {
        // Given a recorder with the defaults on one encoding thread, and a state of ten jars
        let transport = MemoryTransport()
        let store = Store(initialState: Pantry.State(), reducer: Pantry.reducer)
        let recorder = store.startRecording(
            .init(storeID: "pantry", app: AppInfo(name: "P"), encodesStatesInParallel: false), to: transport)
        // When three actions leave the jars as they were
        for action in 1...3 { store.dispatch(action) }
        recorder.finishWaitingGenerously()
        // Then the jars are encoded for the header and for the first action's state, and copied for the others
        #expect(Pantry.Jar.encodings.withLock { $0 } == 20)
        let lastJars = try transport.session().actions.map { state -> JSONValue? in
            guard case .array(let jars)? = state.state["jars"] else { return nil }
            return jars.last
        }
        #expect(lastJars == Array(repeating: .string("jar 9"), count: 3))
    }

    @Test(arguments: [false, true])
    func byDefaultAPartHoldingAClassIsEncodedAgainSoAChangeInPlaceIsRecorded(reusingEveryPart: Bool) async throws {
        // Given a recorder, and a state whose dial holds its needle in a class
        let transport = MemoryTransport()
        let store = Store(initialState: Gauge.State(), reducer: Gauge.reducer)
        let recorder = store.startRecording(
            .init(storeID: "gauge", app: AppInfo(name: "G"), reusesEncodingOfUnchangedParts: reusingEveryPart),
            to: transport)
        store.dispatch(.move)
        try await pollUntil { recorder.statistics.actionsWritten == 1 }
        // When the needle turns in place, leaving every bit of the state's dial as it was
        store.dispatch(.turnNeedleInPlace)
        recorder.finishWaitingGenerously()
        // Then by default the dial is encoded again and the turn is recorded; reusing every part copies the dial
        // from the state before, which is why that is for states of value types only
        let angles = try transport.session().actions.map { $0.state["dial"]?["needle"]?["angle"] }
        #expect(angles == [.integer(0), .integer(reusingEveryPart ? 0 : 10)])
    }
}
