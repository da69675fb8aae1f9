import SampleFeatures
import StoreKitCore
import StoreKitTesting
import Testing

/// A view model that registers an effect of its own on its store, as ReCombine's view models do: after a posted
/// score, the board resets.
private final class ScoreboardViewModel: Sendable {
    private let store: any EffectRegisteringStore<Scoreboard.State, Scoreboard.Action>

    init(store: any EffectRegisteringStore<Scoreboard.State, Scoreboard.Action>) {
        self.store = store
        store.register(
            effect: .dispatchingOne("reset after posting") { action, _ in
                guard case .scorePosted = action else { return nil }
                return .reset
            })
    }

    func homeScoreTapped() { store.dispatch(.homeScored(points: 1, scorer: "Ada")) }
}

@Suite struct MockStoreEffectsTests {
    @Test func registeredEffectsRunWhenTheTestAsksAndWhatTheySendIsDispatched() async throws {
        // Given a view model that registered its effect on a mock store
        let mock = MockStore<Scoreboard.State, Scoreboard.Action>(initialState: Scoreboard.State())
        _ = ScoreboardViewModel(store: mock)

        // When the test dispatches an action, nothing runs the effect
        mock.dispatch(.scorePosted(receipt: 1))
        #expect(mock.dispatchedActions == [.scorePosted(receipt: 1)])

        // Then running the effects for it returns what they sent, and the mock saw it dispatched
        #expect(try await mock.runEffects(for: .scorePosted(receipt: 1)) == [.reset])
        #expect(mock.dispatchedActions == [.scorePosted(receipt: 1), .reset])
        #expect(try await mock.runEffects(for: .homeScored(points: 1, scorer: "Ada")) == [])
    }

    @Test func everyRegisteredEffectRunsWithTheMocksState() async throws {
        var state = Scoreboard.State()
        state.home = 3
        let mock = MockStore<Scoreboard.State, Scoreboard.Action>(initialState: state)
        mock.register(effect: Scoreboard.postScore(to: StubScoreServer(receipt: 9)))
        mock.register(effect: .dispatchingOne("echo home") { _, state in .postFailed(reason: "home \(state.home)") })
        let sent = try await mock.runEffects(for: .homeScored(points: 1, scorer: "Ada"))
        #expect(Set(sent.map { "\($0)" }) == ["scorePosted(receipt: 9)", "postFailed(reason: \"home 3\")"])
    }

    @Test func theSameViewModelRegistersItsEffectOnARealStore() async throws {
        let store = Store(initialState: Scoreboard.State(), reducer: Scoreboard.reducer)
        let interceptor = TestInterceptor<Scoreboard.State, Scoreboard.Action>()
        store.register(interceptor: interceptor)
        _ = ScoreboardViewModel(store: store)
        store.dispatch(.scorePosted(receipt: 1))
        #expect(try await interceptor.waitForActions(count: 2) == [.scorePosted(receipt: 1), .reset])
    }
}
