import Foundation
import StoreKitCore
import StoreKitTesting
import Testing

/// A list whose effect names each added item with a UUID it draws from its context.
private enum Labels {
    struct State: Codable, Equatable, Sendable {
        var ids: [UUID] = []
    }

    enum Action: Codable, Equatable, Sendable {
        case add
        case named(UUID)
    }

    static let reducer = Reducer<State, Action> { state, action in
        if case .named(let id) = action { state.ids.append(id) }
    }

    static let name = Effect<State, Action>("name") { action, context in
        guard case .add = action else { return }
        context.send(.named(context.uuid()))
    }
}

@Suite struct TestStoreUUIDTests {
    @Test func aTestStoresEffectsDrawUUIDsCountingFromZeroSoATestCanAssertThem() async {
        // Given a test store with its default UUIDs
        let failures = FailureCollector()
        let store = TestStore(
            initialState: Labels.State(), reducer: Labels.reducer, effects: [Labels.name],
            reportFailure: failures.report)

        // When two items are added, then their names are the first two UUIDs of the count
        let first = UUID(uuidString: "00000000-0000-0000-0000-000000000000")!
        let second = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!
        await store.send(.add)
        await store.receive(.named(first)) { $0.ids = [first] }
        await store.send(.add)
        await store.receive(.named(second)) { $0.ids = [first, second] }
        await store.finish()
        #expect(failures.failures.map(\.message) == [])
    }

    @Test func eachIncrementingGeneratorCountsOnItsOwnAndAStoreMayTakeAnyOther() {
        let one = UUIDGenerator.incrementing
        let other = UUIDGenerator.incrementing
        #expect([one(), one(), other()].map(\.uuidString) == [
            "00000000-0000-0000-0000-000000000000", "00000000-0000-0000-0000-000000000001",
            "00000000-0000-0000-0000-000000000000",
        ])
        let fixed = UUID(uuidString: "6BA7B810-9DAD-11D1-80B4-00C04FD430C8")!
        #expect(UUIDGenerator { fixed }() == fixed)
        #expect(UUIDGenerator.random() != UUIDGenerator.random())
    }
}
