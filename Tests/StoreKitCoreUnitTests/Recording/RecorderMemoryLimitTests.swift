import Foundation
import StoreKitCore
import StoreKitReplay
import StoreKitTestFixtures
import Testing

/// One number, ``SessionRecorder/Configuration/memoryLimit``, bounds everything a recorder holds.
@Suite struct RecorderMemoryLimitTests {
    @Test func aBurstIntoAStalledTransportNeverTakesTheRecordersAccountedMemoryPastTheLimit() async throws {
        // Given a recorder limited to 1 MB whose states take about 10 KB each, and whose transport is stalled
        let limit = 1 << 20
        let (store, recorder, transport) = heldRecorderOfATenKilobyteTally(memoryLimit: limit)
        store.dispatch(.add(1))
        #expect(transport.waitUntilWriteIsHeld())

        // When a burst of 2000 actions (20 MB of states) comes while it is stalled
        for value in 2...2001 { store.dispatch(.add(value)) }
        let peak = recorder.peakQueuedBytes
        transport.release()
        let statistics = await recorder.finishWaitingGenerouslyOffThePool()

        // Then the parts' bounds add up to no more than the limit, the queue never held more than its share (with
        // the actions it kept without their states), and the actions beyond it were kept without their states or
        // dropped, each counted, in bufferFull gaps
        let shares = recorder.memoryShares
        #expect(shares.total <= limit, "\(shares)")
        #expect(peak > 0 && peak <= shares.queueBytes, "peak \(peak) of \(shares.queueBytes)")
        #expect(statistics.actionsKeptWithoutStates + statistics.droppedBufferFull > 1000)
        #expect(statistics.droppedBufferFull > 0)
        #expect(statistics.actionsWritten + statistics.droppedBufferFull == 2001)
        let gaps = try transport.session().events.compactMap { if case .gap(let gap) = $0 { gap } else { nil } }
        #expect(gaps.allSatisfy { $0.reason == .bufferFull })
        #expect(gaps.filter(\.keepsActions).reduce(0) { $0 + $1.count } == statistics.actionsKeptWithoutStates)
    }

    @Test func aFlightRecordersOwnMemoryCountsWithinTheLimit() async throws {
        // Given a 4 MB flight recorder (which builds a dump beside what it holds) under an 16 MB limit
        let flight = FlightRecorder(maxBytes: 4 << 20)
        let store = Store(initialState: Tally.State(), reducer: Tally.reducer)
        let recorder = store.startRecording(
            .init(storeID: "tally", app: AppInfo(name: "T"), memoryLimit: 16 << 20), to: flight)
        await recorder.finishWaitingGenerouslyOffThePool()

        // Then the recorder's own parts share what the flight recorder leaves of the limit
        let shares = recorder.memoryShares
        #expect(shares.transportBytes == 8 << 20)
        #expect(shares.total <= 16 << 20, "\(shares)")
        #expect(shares.queueBytes < RecorderMemoryShares(limit: 16 << 20, transportBytes: 0).queueBytes)
    }

    @Test func eachPartGetsItsShareOfTheLimit() {
        // 32 MB by default: a quarter for unconfirmed lines, 2 MB chunks (counted twice), the rest for the queue
        let shares = RecorderMemoryShares(limit: 32 << 20, transportBytes: 0)
        #expect(shares == RecorderMemoryShares(limit: 32 << 20, transportBytes: 0, queueOverride: 20 << 20, unconfirmedOverride: 8 << 20))
        #expect(shares.chunkBytes == 2 << 20)
        #expect(shares.total == 32 << 20)
    }
}
