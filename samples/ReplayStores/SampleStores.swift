import SampleFeatures
import StoreKitCore
import StoreKitReplay

/// Every sample feature as a replayable store, for the samples' replay host and golden tests (the sample app
/// itself links only `StoreKitCore` and the features).
public enum SampleStores {
    /// The counter, the todo list and the scoreboard.
    public static let all: [ReplayableStore] = [counter, todos, scoreboard]

    /// The same stores with a deliberate regression: toggling a todo does nothing.
    public static let withTodoToggleRegression: [ReplayableStore] = [
        counter,
        ReplayableStore(
            id: Todos.storeID,
            reducer: Reducer<Todos.State, Todos.Action> { state, action in
                if case .toggleCompleted = action { return }
                Todos.reducer.reduce(&state, action)
            }),
        scoreboard,
    ]

    /// The counter.
    public static let counter = ReplayableStore(id: Counter.storeID, reducer: Counter.reducer)
    /// The todo list.
    public static let todos = ReplayableStore(id: Todos.storeID, reducer: Todos.reducer)
    /// The scoreboard.
    public static let scoreboard = ReplayableStore(id: Scoreboard.storeID, reducer: Scoreboard.reducer)
}
