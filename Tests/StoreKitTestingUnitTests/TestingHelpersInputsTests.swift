import Foundation
import StoreKitCore
import StoreKitTesting
import Testing

/// An effect that answers each `draw` with a UUID and a number it draws from its context.
private enum Draw {
    struct State: Codable, Equatable, Sendable {
        var drawn: [Drawn] = []
    }

    struct Drawn: Codable, Equatable, Sendable {
        var id: UUID
        var number: Int
    }

    enum Action: Codable, Equatable, Sendable {
        case draw
        case drew(Drawn)
    }

    static let reducer = Reducer<State, Action> { state, action in
        if case .drew(let drawn) = action { state.drawn.append(drawn) }
    }

    static let effect = Effect<State, Action>("draw") { action, context in
        guard case .draw = action else { return }
        context.send(.drew(Drawn(id: context.uuid(), number: context.random(in: 1...1000))))
    }
}

@Suite struct TestingHelpersInputsTests {
    @Test func everyTestingHelperDrawsWhatATestStoreDraws() async throws {
        // Given what a test store's effect draws by default: the first UUID of the count and the first number seeded
        // with 0
        let failures = FailureCollector()
        let store = TestStore(
            initialState: Draw.State(), reducer: Draw.reducer, effects: [Draw.effect], exhaustivity: .off,
            reportFailure: failures.report)
        await store.send(.draw)
        await store.skipReceivedActions()
        await store.finish()
        let expected = try #require(store.state.drawn.first)
        #expect(expected.id.uuidString == "00000000-0000-0000-0000-000000000000")

        // When the effect runs alone, through a mock store and through an effect runner
        let alone = try await Draw.effect.run(with: .draw, state: Draw.State())
        let mock = MockStore<Draw.State, Draw.Action>(initialState: Draw.State())
        mock.register(effect: Draw.effect)
        let mocked = try await mock.runEffects(for: .draw)
        let runner = EffectRunner(
            initialState: Draw.State(), reducer: Draw.reducer, effects: [Draw.effect], clock: TestClock())
        let run = await runner.run([Timed(at: .zero, .draw)])

        // Then each draws the same, so a test asserts it as it would with a test store
        #expect(alone == [.drew(expected)])
        #expect(mocked == [.drew(expected)])
        #expect(run.states.last?.value.drawn == [expected])
        #expect(failures.failures.map(\.message) == [])
    }
}
