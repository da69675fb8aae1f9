import Foundation
import SampleFeatures
import StoreKitCore
import StoreKitTesting
import Testing

/// Presenter tests with store doubles: the presenter is told about store updates and the test checks what it
/// passed on, without exercising the store's own logic.
@Suite struct PresenterStyleTests {
    @Test func aPresenterUpdatesItsViewWhenTheStoreChanges() async throws {
        // Given a real store observed by a "presenter" that forwards the footer text to its view
        let store = Store(initialState: Todos.State(), reducer: Todos.reducer)
        let viewModel = TodoListViewModel(store: store, makeID: { TodoFixtures.milk }, now: { TodoFixtures.date })
        let updates = ActionLog<String>()
        let subscription = store.observe { _ in updates.append(viewModel.footer) }
        defer { subscription.cancel() }

        // When the user adds a todo
        viewModel.add(title: "Milk")

        // Then the view was updated once with the new footer
        #expect(try await updates.wait(forCount: 1) == ["1 item left"])
        #expect(updates.count == 1)
    }
}
