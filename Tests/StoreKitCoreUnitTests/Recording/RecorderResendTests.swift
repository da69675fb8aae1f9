import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import StoreKitTestFixtures
import Testing

@Suite struct RecorderResendTests {
    @Test func afterAReceiverLosesUnconfirmedLinesTheRecorderResendsThemAndAPatchGoesAsAFullState() async throws {
        // Given a delta recording (of a state large enough for patches) to a receiver that confirms what it persisted
        let transport = RestartingTransport()
        var initial = Tally.State()
        initial.items = Array(repeating: 0, count: 100)
        let store = Store(initialState: initial, reducer: Tally.reducer)
        let recorder = store.startRecording(
            .init(storeID: "tally", app: AppInfo(name: "T"), snapshots: .delta(keyframeInterval: 100)), to: transport)
        for value in 1...10 { store.dispatch(.add(value)) }
        try await pollUntil { recorder.statistics.actionsWritten == 10 }

        // When it confirms 3, then restarts having persisted only up to 5, and the app goes on
        transport.confirm(through: 3)
        transport.restart(persistedThrough: 5)
        for value in 11...15 { store.dispatch(.add(value)) }
        let statistics = await recorder.finishWaitingGenerouslyOffThePool()

        // Then the session has every action once and no gap; the first resent line carries a full state
        let session = try transport.session()
        #expect(transport.problems.isEmpty)
        #expect(session.actions.map(\.sequence) == Array(1...15))
        #expect(!session.events.contains { if case .gap = $0 { true } else { false } })
        #expect(session.actions.first { $0.sequence == 5 }?.patch != nil)
        #expect(session.actions.first { $0.sequence == 6 }?.patch == nil)
        #expect(session.actions.first { $0.sequence == 7 }?.patch != nil)
        #expect(session.actions.last?.state == (try CanonicalJSONEncoder().encode(store.state)))
        #expect(statistics.droppedTransportFailed == 0)
        #expect(statistics.actionsWritten == 15)
    }
}

/// A receiver that confirms what the test says it persisted, and can restart having lost the lines after a number,
/// with the daemon's rules: no sequence number twice, and a full state first after a restart.
private final class RestartingTransport: SessionTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var header: [UInt8] = []
    private var stored: [(sequence: Int, line: [UInt8])] = []
    private var confirmed = 0
    private var restartedAt: Int?
    private var brokenUntilStart = false
    private var awaitingFullState = false
    private(set) var problems: [String] = []

    struct Restarted: Error {}

    func confirm(through sequence: Int) { lock.withLock { confirmed = sequence } }

    /// Loses the lines after `sequence`; the next write fails, and the next start says `sequence`.
    func restart(persistedThrough sequence: Int) {
        lock.withLock {
            stored.removeAll { $0.sequence > sequence }
            restartedAt = sequence
            confirmed = sequence
            brokenUntilStart = true
        }
    }

    func start(header: [UInt8]) throws -> Int? {
        lock.withLock {
            if self.header.isEmpty { self.header = header }
            brokenUntilStart = false
            awaitingFullState = restartedAt != nil
            return restartedAt ?? 0
        }
    }

    func write(_ lines: [UInt8]) throws {
        try lock.withLock {
            if brokenUntilStart { throw Restarted() }
            for line in lines.split(separator: 0x0A) {
                let value = try JSONValue(parsing: Array(line))
                guard case .integer(let sequence)? = value["seq"] else {
                    stored.append((stored.last?.sequence ?? 0, Array(line) + [0x0A]))
                    continue
                }
                if let last = stored.last?.sequence, Int(sequence) <= last {
                    problems.append("seq \(sequence) after \(last)")
                }
                if awaitingFullState && value["patch"] != nil { problems.append("patch \(sequence) first") }
                awaitingFullState = false
                stored.append((Int(sequence), Array(line) + [0x0A]))
            }
        }
    }

    func persistedSequence() -> Int? { lock.withLock { confirmed } }

    func close() throws {}

    func session() throws -> Session {
        try lock.withLock { try Session(ndjson: header + stored.flatMap(\.line), source: "<restarting>") }
    }
}
