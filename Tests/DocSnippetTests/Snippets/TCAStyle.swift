import SampleFeatures
import StoreKitTesting

/// docs/testing.md's TCA style: an exhaustive `TestStore`.
func tcaStyle() async {
    // snippet: testing-tca-style
    let store = TestStore(initialState: Scoreboard.State(), reducer: Scoreboard.reducer,
                          effects: [Scoreboard.postScore(to: StubScoreServer(receipt: 7))])
    await store.send(.homeScored(points: 1, scorer: "Ada")) {
        $0.home = 1
        $0.scorers = ["Ada"]
    }
    await store.receive(.scorePosted(receipt: 7)) { $0.lastReceipt = 7 }
    await store.finish()      // fails for effect actions never received, and names effects that never end
    // snippet end
}
