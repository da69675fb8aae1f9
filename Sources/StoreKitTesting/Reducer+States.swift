import StoreKitCore
import StoreKitReplay

extension Reducer {
    /// The state after each action, starting from `initialState`: the UDF "events in, states out" test form.
    ///
    /// ```swift
    /// let states = Todos.reducer.states(from: Todos.State(), after: [.addTodo(...), .toggleCompleted(id: id)])
    /// #expect(states[1].todos[0].isComplete)
    /// ```
    public func states(from initialState: State, after actions: [Action]) -> [State] {
        var state = initialState
        return actions.map { action in
            reduce(&state, action)
            return state
        }
    }
}
