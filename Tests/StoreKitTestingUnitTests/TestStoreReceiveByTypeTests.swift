import SampleFeatures
import StoreKitCore
import StoreKitTesting
import Testing

/// A pantry double whose saved list is `names`.
private struct StubPantry: Groceries.Pantry {
    var names = ["Flour"]
    func savedItems() async -> [String] { names }
}

/// A test store over the sample grocery list, whose actions are separate structs.
private func groceryStore(_ failures: FailureCollector) -> TestStore<Groceries.State, Groceries.Action> {
    TestStore(
        initialState: Groceries.State(), reducer: Groceries.reducer, effects: [Groceries.fetchItems(from: StubPantry())],
        receiveTimeout: .seconds(60), reportFailure: failures.report)
}

@Suite struct TestStoreReceiveByTypeTests {
    @Test func sendsStructsAndReceivesAnEffectsActionByItsType() async {
        // Given a grocery list whose fetch effect answers with the pantry's items
        let failures = FailureCollector()
        let store = groceryStore(failures)

        // When the test sends plain structs and receives the answer by its type
        await store.send(Groceries.AddItem(name: "Milk")) {
            $0.items = [Groceries.Item(id: 1, name: "Milk")]
            $0.nextID = 2
        }
        await store.send(Groceries.FetchItems()) { $0.isLoading = true }
        await store.receive(Groceries.DidFetchItems.self) {
            $0.isLoading = false
            $0.items.append(Groceries.Item(id: 2, name: "Flour"))
            $0.nextID = 3
        }
        await store.finish(timeout: .seconds(60))

        // Then nothing failed
        #expect(failures.failures.map(\.message) == [])
    }

    @Test func receivesAStructByItsValueAndByAPredicateOnItsType() async {
        let failures = FailureCollector()
        let store = groceryStore(failures)
        store.exhaustivity = .off(showSkippedAssertions: false)
        await store.send(Groceries.FetchItems())
        await store.receive(Groceries.DidFetchItems(names: ["Flour"]))
        await store.send(Groceries.FetchItems())
        await store.receive(Groceries.DidFetchItems.self, where: { $0.names == ["Flour"] })
        await store.finish(timeout: .seconds(60))
        #expect(failures.failures.map(\.message) == [])
    }

    @Test func receivingAnotherTypeFailsNamingTheTypeWaitedForAndWhatArrived() async {
        let failures = FailureCollector()
        let store = groceryStore(failures)
        await store.send(Groceries.FetchItems()) { $0.isLoading = true }
        await store.receive(Groceries.AddItem.self)
        #expect(
            failures.failures.map(\.message) == [
                """
                step 2: received an unexpected action
                  - expected  an action of type AddItem
                  + received  DidFetchItems(names: ["Flour"])
                """
            ])
    }

    @Test func aPredicateThatRejectsTheTypedValueIsNamedInTheFailure() async {
        let failures = FailureCollector()
        let store = groceryStore(failures)
        await store.send(Groceries.FetchItems()) { $0.isLoading = true }
        await store.receive(Groceries.DidFetchItems.self, where: { $0.names.isEmpty })
        #expect(
            failures.failures.map(\.message) == [
                """
                step 2: received an unexpected action
                  - expected  an action of type DidFetchItems that the predicate accepts
                  + received  DidFetchItems(names: ["Flour"])
                """
            ])
    }

    @Test func aTimeoutNamesTheTypeWaitedFor() async {
        let failures = FailureCollector()
        let store = groceryStore(failures)
        store.receiveTimeout = .milliseconds(50)
        await store.send(Groceries.AddItem(name: "Milk")) {
            $0.items = [Groceries.Item(id: 1, name: "Milk")]
            $0.nextID = 2
        }
        await store.receive(Groceries.DidFetchItems.self)
        #expect(
            failures.failures.map(\.message) == [
                "after step 1: expected to receive an action of type DidFetchItems within 0.05 seconds, but no action arrived"
            ])
    }

    @Test func aPredicateFailureSaysWhatTheTestWaitedForAndWhatArrived() async {
        let failures = FailureCollector()
        let store = groceryStore(failures)
        await store.send(Groceries.FetchItems()) { $0.isLoading = true }
        await store.receive(where: { $0.is(Groceries.ClearBought.self) })
        #expect(
            failures.failures.map(\.message) == [
                """
                step 2: received an unexpected action
                  - expected  an action the predicate accepts
                  + received  DidFetchItems(names: ["Flour"])
                """
            ])
    }
}
