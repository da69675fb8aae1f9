import Foundation
import SampleSupport
import StoreKitCore

/// The sample app's scripted todo journey, shared with the benchmarks' burst: a user adding a shopping list,
/// tagging, ticking off, filtering, deleting and clearing, so the list grows and shrinks around a few dozen todos.
package enum TodoJourney {
    /// Dispatches `actions` actions of the journey to `store`, drawn from `random` (the same seed, the same actions).
    package static func dispatch(
        to store: Store<Todos.State, Todos.Action>, actions: Int, random: inout SeededRandom
    ) {
        let titles = ["Milk", "Eggs", "Bread", "Call mum", "Pay rent", "Book flights", "Fix bike", "Water plants"]
        let tags = ["home", "errand", "urgent", "weekend"]
        var clock = Date(timeIntervalSince1970: 1_795_000_000)
        for _ in 0..<actions {
            clock += Double.random(in: 0.5...30, using: &random)
            let todos = store.state.todos
            let roll = Int.random(in: 0..<100, using: &random)
            if todos.count < 3 || roll < 30 {
                let title = titles.randomElement(using: &random)!
                store.dispatch(.addTodo(id: random.uuid(), title: title, createdAt: clock))
            } else if roll < 55 {
                store.dispatch(.toggleCompleted(id: todos.randomElement(using: &random)!.id))
            } else if roll < 75 {
                let todo = todos.randomElement(using: &random)!
                store.dispatch(.tag(id: todo.id, tag: tags.randomElement(using: &random)!))
            } else if roll < 85 {
                store.dispatch(.setFilter(Todos.Filter.allCases.randomElement(using: &random)!))
            } else if roll < 93 {
                store.dispatch(.delete(id: todos.randomElement(using: &random)!.id))
            } else {
                store.dispatch(.clearCompleted)
            }
        }
    }
}
