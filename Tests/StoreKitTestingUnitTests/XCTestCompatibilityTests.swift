import SampleFeatures
import SampleReplayStores
import StoreKitCore
import StoreKitTesting
import XCTest

/// The helpers work from XCTest as well as from Swift Testing.
final class XCTestCompatibilityTests: XCTestCase {
    func testTestStoreSendAndReceiveFromXCTest() async {
        let store = TestStore(
            initialState: Scoreboard.State(), reducer: Scoreboard.reducer,
            effects: [Scoreboard.postScore(to: StubScoreServer(receipt: 3))])
        await store.send(.homeScored(points: 2, scorer: "Grace")) {
            $0.home = 2
            $0.scorers = ["Grace"]
        }
        await store.receive(.scorePosted(receipt: 3)) { $0.lastReceipt = 3 }
        await store.finish()
    }

    func testGoldenReplayFromXCTest() throws {
        let golden = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("samples/sessions/counter-basic.jsonl").path
        let report = try assertReplayMatches(session: golden, stores: SampleStores.all, record: .never)
        XCTAssertEqual(report.verdict, .match)
    }
}
