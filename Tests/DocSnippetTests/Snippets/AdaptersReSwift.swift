import ReSwiftStandIn
@testable import ReSwiftAdapter
import struct StoreKitCore.ActionTypes
import protocol StoreKitCore.ActionRegistry
import struct StoreKitCore.AppInfo
import class StoreKitCore.FileTransport
import struct StoreKitCore.RegisteredAction
import class StoreKitCore.SessionRecorder
import enum StoreKitReplay.ReplayHost
import struct StoreKitReplay.ReplayableStore

/// A ReSwift app's state, actions and reducer, as docs/adapters.md and docs/coming-from.md show them.
private enum ReSwiftDocs {
    struct AppState: Codable, Equatable, Sendable { var todos: [String] = [] }
    struct AddTodoAction: Action, Codable, Sendable { var title: String }
    struct DidFetchTodosAction: Action, Codable, Sendable { var todos: [String] }
    @Sendable static func appReducer(action: Action, state: AppState?) -> AppState { state ?? AppState() }

    // snippet: coming-from-reswift-registry
    enum AppActions: ActionRegistry {
        static let types = ActionTypes {
            AddTodoAction.self
            DidFetchTodosAction.self
        }
    }
    // snippet end

    @MainActor static func recordReSwift() -> Store<AppState> {
        // snippet: adapters-reswift
        let recorder = SessionRecorder<AppState, RegisteredAction<AppActions>>(
            initialState: AppState(), transport: FileTransport(path: "/tmp/todos.jsonl"),
            configuration: .init(storeID: "todos", app: AppInfo(name: "TodoApp")))
        let store = Store<AppState>(reducer: appReducer, state: AppState(), middleware: [recorder.middleware()])
        // snippet end
        return store
    }

    static func replayReSwift() -> Never {
        // snippet: adapters-reswift-replay-host
        ReplayHost.run(stores: [.reSwift(id: "todos", reducer: appReducer, actions: AppActions.self)])
        // snippet end
    }
}
