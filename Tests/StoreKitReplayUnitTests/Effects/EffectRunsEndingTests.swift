import StoreKitCore
import StoreKitReplay
import StoreKitSystem
import Testing

/// The effect runs still in flight after the last step are ended and judged with their progress told, so that a
/// replay host can show a long ending on its board.
@Suite struct EffectRunsEndingTests {
    @Test func theRunsInFlightAtTheEndAreToldAsTheyAreEndedAndJudged() {
        // Given a session of 5,000 scores whose posts never read the state the session did not record
        var builder = BoardSession()
        for _ in 0..<5000 { builder.action(.scored(1)) }
        let told = Locked<[EffectRunsEnding]>([])
        let engine = ReplayEngine(
            stores: [Board.store([Board.postScore()])],
            options: .init(endingEffectRuns: { ending in told.withLock { $0.append(ending) } }))

        // When it is replayed
        _ = engine.replay(builder.session)

        // Then the ending is told from its start to the last 4,096 runs judged, each run ended by then
        let endings = told.withLock { $0 }
        #expect(endings.first == EffectRunsEnding(inFlight: 5000, ended: 0, judged: 0))
        #expect(endings.last == EffectRunsEnding(inFlight: 5000, ended: 5000, judged: 4096))
    }
}
