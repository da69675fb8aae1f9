// StoreKit Replay's recorder for a ReSwift store: a middleware. Copy this file into your app target (it is not a
// package product); the app links StoreKitCore and ReSwift. docs/adapters.md has the whole walk-through.
//
//     let recorder = SessionRecorder<AppState, AppAction>(
//         initialState: AppState(), transport: FileTransport(path: "/tmp/todos.jsonl"),
//         configuration: .init(storeID: "todos", app: AppInfo(name: "TodoApp")))
//     let store = Store<AppState>(reducer: appReducer, state: AppState(), middleware: [recorder.middleware()])
//
// where `AppAction` is `RegisteredAction<AppActions>` and `AppActions` lists your `Codable` action structs.
//
// What it records: every action that reaches the reducer, with the state after it, numbered in order. An action
// whose type is not `Codable` or not listed (a thunk, an action holding a closure) is recorded as a `gap` of reason
// `notEncodable` naming its type; the reducer still runs it, and replay resumes at the next action's state.
// What it cannot know: ReSwift does not say who dispatched an action, so every action is recorded as dispatched by
// the app, including those your middleware or thunks dispatch after a request.
// Put it last in `middleware:` so it sees the actions the reducer sees (after other middleware changed or dropped
// them). Create the recorder with the same initial state the store starts from.

import StoreKitCore

#if STOREKIT_ADAPTER_STAND_IN
    import ReSwiftStandIn  // this repository's tests compile the adapter against a stand-in of ReSwift
#else
    import ReSwift
#endif

extension SessionRecorder {
    /// A ReSwift middleware that records each action the reducer runs, with the state after it.
    func middleware<Registry: ActionRegistry>() -> Middleware<State>
    where Action == RegisteredAction<Registry> {
        { _, getState in
            { next in
                { action in
                    next(action)
                    guard let state = getState() else { return }
                    self.record(anyAction: action, state: state)
                }
            }
        }
    }
}
