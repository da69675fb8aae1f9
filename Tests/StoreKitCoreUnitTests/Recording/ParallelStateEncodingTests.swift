import Foundation
import StoreKitCore
import Testing

/// A board whose state cannot be encoded while it is poisoned.
private enum Board {
    struct State: Codable, Equatable, Sendable {
        var cells = Array(repeating: 0, count: 300)
        var title = "board"
        var poisoned = false

        private enum CodingKeys: String, CodingKey { case cells, title }

        func encode(to encoder: any Encoder) throws {
            if poisoned {
                throw EncodingError.invalidValue(
                    self, EncodingError.Context(codingPath: [], debugDescription: "the board is poisoned"))
            }
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(cells, forKey: .cells)
            try container.encode(title, forKey: .title)
        }
    }

    enum Action: Codable, Equatable, Sendable {
        case set(cell: Int, value: Int)
        case poison(Bool)
    }

    static let reducer = Reducer<State, Action> { state, action in
        switch action {
        case .set(let cell, let value): state.cells[cell] = value
        case .poison(let poisoned): state.poisoned = poisoned
        }
    }

    /// Many actions, with one state that cannot be encoded in the middle.
    static let actions: [Action] = (0..<150).flatMap { step -> [Action] in
        let set = Action.set(cell: step * 7 % 300, value: step)
        return step == 75 ? [.poison(true), .poison(false), set] : [set]
    }
}

/// A memory transport that holds the recorder's start until opened, so every action dispatched meanwhile is
/// delivered in one batch.
private final class GatedTransport: SessionTransport, @unchecked Sendable {
    let memory = MemoryTransport()
    private let gate = NSCondition()
    private var isOpen = false

    func open() {
        gate.withLock {
            isOpen = true
            gate.broadcast()
        }
    }

    func start(header: [UInt8]) throws -> Int? {
        gate.withLock { while !isOpen { gate.wait() } }
        return try memory.start(header: header)
    }

    func write(_ lines: [UInt8]) throws { try memory.write(lines) }
    func close() throws { try memory.close() }
}

@Suite struct ParallelStateEncodingTests {
    /// Records `actions` in one batch; returns the lines after the header, without their times, and the recorder.
    private func record(
        _ actions: [Board.Action], snapshots: SnapshotPolicy, reusesUnchangedParts: Bool
    ) -> ([String], SessionRecorder<Board.State, Board.Action>) {
        let store = Store(initialState: Board.State(), reducer: Board.reducer)
        let transport = GatedTransport()
        let recorder = store.startRecording(
            .init(
                storeID: "board", app: AppInfo(name: "Board"), snapshots: snapshots,
                reusesEncodingOfUnchangedParts: reusesUnchangedParts, encodesStatesInParallel: true),
            to: transport)
        for action in actions { store.dispatch(action) }
        transport.open()
        recorder.finish(timeout: .seconds(60))
        let lines = transport.memory.lines.dropFirst().map {
            $0.replacingOccurrences(of: #","time":[^}]*\}$"#, with: "}", options: .regularExpression)
        }
        return (lines, recorder)
    }

    @Test(arguments: [SnapshotPolicy.full, .delta(keyframeInterval: 10)])
    func aLongBatchEncodedOnTwoThreadsGivesTheLinesOfOneThread(snapshots: SnapshotPolicy) throws {
        // Given a long batch with a state that cannot be encoded in the middle, recorded once on one thread (reused
        // parts compare each state with the one before, so that recorder never encodes ahead)
        let (sequential, sequentialRecorder) = record(Board.actions, snapshots: snapshots, reusesUnchangedParts: true)
        #expect(sequentialRecorder.stateEncodingPool == nil)

        // When it is recorded with its states encoded ahead on two threads
        let (parallel, parallelRecorder) = record(Board.actions, snapshots: snapshots, reusesUnchangedParts: false)

        // Then the second thread encoded, ended with the recorder, and the lines are the same, gap included
        let pool = try #require(parallelRecorder.stateEncodingPool)
        #expect(pool.wasHelperStarted)
        #expect(!pool.isHelperRunning)
        #expect(parallel.count == Board.actions.count + 1)
        #expect(parallel.filter { $0.contains(#""reason":"encodingFailed""#) }.count == 1)
        if case .delta = snapshots { #expect(parallel.contains { $0.contains(#""patch":"#) }) }
        #expect(parallel == sequential)
    }

    @Test func aShortBatchIsEncodedOnOneThread() throws {
        // Given a batch shorter than a window, when it is recorded
        let (lines, recorder) = record(
            Array(Board.actions.prefix(10)), snapshots: .full, reusesUnchangedParts: false)

        // Then no second thread was started
        #expect(lines.count == 11)
        #expect(try #require(recorder.stateEncodingPool).wasHelperStarted == false)
    }
}
