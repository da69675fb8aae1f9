import StoreKitCore

/// The settings feature docs/replay-host-protocol.md's replay host lists beside the sample todo list.
enum Settings {
    /// Whether the app shows completed todos.
    struct State: Codable, Equatable, Sendable {
        var showsCompleted = true
    }

    /// The one thing a user changes.
    enum Action: Codable, Sendable {
        case setShowsCompleted(Bool)
    }

    /// Applies an action to the settings.
    static let reducer = Reducer<State, Action> { state, action in
        switch action {
        case .setShowsCompleted(let shows): state.showsCompleted = shows
        }
    }
}
