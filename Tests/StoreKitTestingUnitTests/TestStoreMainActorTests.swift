import StoreKitCore
import StoreKitTesting
import Testing

/// An app's tests often run on the main actor (`@MainActor` suites, as TCA's `TestStore` asks): `send`, `receive`
/// and `finish` take their assertion closures from there, running on the caller's actor instead of asking for
/// `Sendable` closures. This suite compiling is half the test.
@MainActor @Suite struct TestStoreMainActorTests {
    @Test func aMainActorTestSendsAndReceivesWithAssertions() async {
        let failures = FailureCollector()
        let store = TestStore(
            initialState: Stack.State(), reducer: Stack.reducer, effects: Stack.effects(clock: TestClock()),
            receiveTimeout: .seconds(60), reportFailure: failures.report)

        await store.send(.push(id: 1, title: "Intro")) { $0.path[1] = Rehearsal.State(title: "Intro") }
        await store.send(.path(.element(id: 1, action: .renamed("Verse")))) { $0.path[1]?.title = "Verse" }
        await store.finish()

        #expect(failures.failures.map(\.message) == [])
    }
}
