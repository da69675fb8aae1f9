import StoreKitCore

/// Every sample feature as a replayable store, for replay hosts and golden tests.
public enum SampleStores {
    /// The counter, the todo list and the scoreboard.
    public static let all: [ReplayableStore] = [Counter.replayable, Todos.replayable, Scoreboard.replayable]

    /// The same stores with a deliberate regression: toggling a todo does nothing.
    public static let withTodoToggleRegression: [ReplayableStore] = [
        Counter.replayable,
        ReplayableStore(
            id: Todos.storeID,
            reducer: Reducer<Todos.State, Todos.Action> { state, action in
                if case .toggleCompleted = action { return }
                Todos.reducer.reduce(&state, action)
            }),
        Scoreboard.replayable,
    ]
}
