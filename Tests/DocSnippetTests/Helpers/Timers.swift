import StoreKitCore

/// The timers feature of docs/migrations.md, as it is at schema version 3.
enum Timers {
    /// One timer: its title (`label` before version 3) and whether it is paused (since version 2).
    struct Timer: Codable, Equatable, Sendable {
        var id: Int
        var title: String
        var isPaused = false
    }

    /// The timers.
    struct State: Codable, Equatable, Sendable {
        var timers: [Timer] = []
    }

    /// Adding a timer and resuming one (`start` before version 3).
    enum Action: Codable, Sendable {
        case add(id: Int, title: String)
        case resume(id: Int)
    }

    /// Applies an action to the timers.
    static let reducer = Reducer<State, Action> { state, action in
        switch action {
        case .add(let id, let title): state.timers.append(Timer(id: id, title: title))
        case .resume(let id):
            if let index = state.timers.firstIndex(where: { $0.id == id }) { state.timers[index].isPaused = false }
        }
    }
}
