import StoreKitCore

/// Every sample feature as a replayable store, for replay hosts and golden tests.
public enum SampleStores {
    /// The counter, the todo list and the scoreboard.
    public static let all: [ReplayableStore] = [Counter.replayable, Todos.replayable, Scoreboard.replayable]
}
