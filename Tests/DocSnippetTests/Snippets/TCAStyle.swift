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

/// docs/testing.md: asserting a state with a value an effect drew live, captured as its action is received.
func tcaStyleCapturedValue() async {
    let store = TestStore(
        initialState: Scoreboard.State(), reducer: Scoreboard.reducer,
        effects: [Scoreboard.postScore(to: StubScoreServer(receipt: 7))], exhaustivity: .off)
    await store.send(.homeScored(points: 1, scorer: "Ada"))
    // snippet: testing-captured-value
    var receipt = 0
    await store.receive(where: { if case .scorePosted(let value) = $0 { receipt = value; return true } else { return false } }) {
        $0.lastReceipt = receipt
    }
    // snippet end
    await store.finish()
}
