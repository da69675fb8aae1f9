import StoreKitCore
import StoreKitTesting
import Testing

/// A die whose effect rolls it with a number it draws from its context.
private enum Die {
    struct State: Codable, Equatable, Sendable {
        var rolls: [Int] = []
    }

    enum Action: Codable, Equatable, Sendable {
        case roll
        case rolled(Int)
    }

    static let reducer = Reducer<State, Action> { state, action in
        if case .rolled(let face) = action { state.rolls.append(face) }
    }

    static let roll = Effect<State, Action>("roll") { action, context in
        guard case .roll = action else { return }
        context.send(.rolled(context.random(in: 1...6)))
    }

    /// The faces a test store's effect draws in two rolls.
    static func twoRolls(random: RandomGenerator? = nil) async -> [Int] {
        let failures = FailureCollector()
        let store =
            if let random {
                TestStore(
                    initialState: State(), reducer: reducer, effects: [roll], random: random, exhaustivity: .off,
                    reportFailure: failures.report)
            } else {
                TestStore(
                    initialState: State(), reducer: reducer, effects: [roll], exhaustivity: .off,
                    reportFailure: failures.report)
            }
        for _ in 0..<2 {
            await store.send(.roll)
            await store.skipReceivedActions()
        }
        await store.finish()
        #expect(failures.failures.map(\.message) == [])
        return store.state.rolls
    }
}

@Suite struct TestStoreRandomTests {
    @Test func aTestStoresEffectsDrawTheSameNumbersInEveryRunSoATestCanAssertThem() async {
        // Given a test store with its default random numbers, when its effect rolls twice
        let failures = FailureCollector()
        let store = TestStore(
            initialState: Die.State(), reducer: Die.reducer, effects: [Die.roll], reportFailure: failures.report)

        // Then the faces are those of a generator seeded with 0, which the test asserts as it receives them
        let expected = await Die.twoRolls(random: .seeded(0))
        await store.send(.roll)
        await store.receive(.rolled(expected[0])) { $0.rolls = [expected[0]] }
        await store.send(.roll)
        await store.receive(.rolled(expected[1])) { $0.rolls = expected }
        await store.finish()
        #expect(failures.failures.map(\.message) == [])
        #expect(await Die.twoRolls() == expected)
    }

    @Test func aSeededGeneratorGivesTheSameBitsForItsSeedAndEachUseStartsItsOwnSequence() {
        // SplitMix64's first two outputs for the seed 0, as its authors publish them
        let one = RandomGenerator.seeded(0)
        let other = RandomGenerator.seeded(0)
        #expect([one(), one(), other()] == [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0xE220_A839_7B1D_CDAF])
        #expect(RandomGenerator.seeded(1)() != RandomGenerator.seeded(0)())
        #expect(RandomGenerator { 42 }() == 42)
        #expect(RandomGenerator.system() != RandomGenerator.system())
    }
}
