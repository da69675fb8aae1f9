import Foundation
import StoreKitCore
import StoreKitReplay

/// docs/effects.md's todo sync: an effect that loads todos, retries with a back-off, and reports the outcome.
enum TodoSync {
    struct State: Codable, Equatable, Sendable {
        var todos: [String] = []
        var failure: String?
    }

    enum Action: Codable, Equatable, Sendable {
        case refresh
        case loaded([String])
        case failed(String)
    }

    /// The service the effect talks to.
    protocol API: Sendable {
        func fetchTodos() async throws -> [String]
    }

    static let reducer = Reducer<State, Action> { state, action in
        switch action {
        case .refresh: break
        case .loaded(let todos): state.todos = todos
        case .failed(let reason): state.failure = reason
        }
    }

    static func load(api: any API) -> Effect<State, Action> {
        // snippet: effects-replayable
        Effect<State, Action>("load todos", replay: .rerun) { action, context in
            guard case .refresh = action else { return }
            for attempt in 1...3 {
                do {
                    let todos = try await context.call("todos.fetch") { try await api.fetchTodos() }
                    context.send(.loaded(todos))
                    return
                } catch {
                    guard attempt < 3 else { return context.send(.failed("\(error)")) }
                    try? await context.clock.sleep(for: .seconds(attempt))
                }
            }
        }
        // snippet end
    }
}

/// docs/effects.md's replay host: the store with its effects, and a service replay must never reach.
func replayableTodoStore() -> ReplayableStore {
    // snippet: effects-replay-host
    struct Unreachable: TodoSync.API {
        func fetchTodos() async throws -> [String] {
            preconditionFailure("replay reached the service: every call must go through context.call")
        }
    }
    let todos = ReplayableStore(id: "todos", reducer: TodoSync.reducer, effects: [TodoSync.load(api: Unreachable())])
    // snippet end
    return todos
}
