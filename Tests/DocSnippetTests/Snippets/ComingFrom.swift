import StoreKitCore

/// docs/coming-from.md's port of a Fluxor or ReSwift app onto the package's store.
private enum ComingFromDocs {
    struct AppState: Codable, Equatable, Sendable { var todos: [String] = [] }
    struct AddTodoAction: Codable, Sendable { var title: String }
    struct DidFetchTodosAction: Codable, Sendable { var todos: [String] }

    static func port() {
        // snippet: coming-from-port
        enum AppActions: ActionRegistry {
            static let types = ActionTypes {
                AddTodoAction.self
                DidFetchTodosAction.self
            }
        }
        let reducer = Reducer<AppState, RegisteredAction<AppActions>>.combine(
            .on(AddTodoAction.self) { state, add in state.todos.append(add.title) },
            .on(DidFetchTodosAction.self) { state, fetched in state.todos = fetched.todos })
        let store = Store(initialState: AppState(), reducer: reducer)
        let recorder = store.startRecording(
            .init(storeID: "todos", app: AppInfo(name: "TodoApp")), to: FileTransport(path: "/tmp/todos.jsonl"))
        store.dispatch(AddTodoAction(title: "Milk"))   // no wrapping: recorded as AddTodoAction
        recorder.finish()
        // snippet end
    }
}
