import FluxorStandIn
@testable import FluxorAdapter
import struct StoreKitCore.ActionTypes
import protocol StoreKitCore.ActionRegistry
import struct StoreKitCore.AppInfo
import class StoreKitCore.FileTransport
import struct StoreKitCore.RegisteredAction
import class StoreKitCore.SessionRecorder
import enum StoreKitReplay.ReplayHost
import struct StoreKitReplay.ReplayableStore

/// A Fluxor app's state, actions and reducers, as docs/adapters.md shows them.
private enum FluxorDocs {
    struct AppState: Codable, Equatable, Sendable { var todos: [String] = [] }
    struct FetchTodosAction: Action, Codable, Sendable {}
    struct DidFetchTodosAction: Action, Codable, Sendable { var todos: [String] }
    enum AppActions: ActionRegistry {
        static let types = ActionTypes {
            FetchTodosAction.self
            DidFetchTodosAction.self
        }
    }
    static func makeTodosReducer() -> Reducer<AppState> {
        Reducer { state, action in
            if let fetched = action as? DidFetchTodosAction { state.todos = fetched.todos }
        }
    }

    static func recordFluxor(store: Store<AppState, Void>) {
        // snippet: adapters-fluxor
        let recorder = SessionRecorder<AppState, RegisteredAction<AppActions>>(
            initialState: store.state, transport: FileTransport(path: "/tmp/todos.jsonl"),
            configuration: .init(storeID: "todos", app: AppInfo(name: "TodoApp")))
        store.register(interceptor: RecordingInterceptor(recorder: recorder))
        // snippet end
    }

    static func replayFluxor() -> Never {
        // snippet: adapters-fluxor-replay-host
        ReplayHost.run(stores: [.fluxor(id: "todos", actions: AppActions.self) { [makeTodosReducer()] }])
        // snippet end
    }
}
