import Foundation
import SampleFeatures
import StoreKitCore
import StoreKitTesting
import Testing

/// The UDF TestStore style: events in, states out, asserted one by one.
@Suite struct UDFStyleTests {
    @Test func aTodoUserStoryAsStates() {
        let states = Todos.reducer.states(
            from: Todos.State(),
            after: [
                .addTodo(id: TodoFixtures.milk, title: "Milk", createdAt: TodoFixtures.date),
                .addTodo(id: TodoFixtures.eggs, title: "Eggs", createdAt: TodoFixtures.date),
                .toggleCompleted(id: TodoFixtures.milk),
                .setFilter(.active),
                .clearCompleted,
            ])
        #expect(states.map(\.todos.count) == [1, 2, 2, 2, 1])
        #expect(states[2].todos[0].isComplete)
        #expect(states[3].filter == .active)
        #expect(states[4].todos.map(\.title) == ["Eggs"])
    }
}
