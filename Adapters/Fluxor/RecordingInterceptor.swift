// StoreKit Replay's recorder for a Fluxor store: an interceptor. Copy this file into your app target (it is not a
// package product); the app links StoreKitCore and Fluxor. docs/adapters.md has the whole walk-through.
//
//     let recorder = SessionRecorder<AppState, AppAction>(
//         initialState: store.state, transport: FileTransport(path: "/tmp/todos.jsonl"),
//         configuration: .init(storeID: "todos", app: AppInfo(name: "TodoApp")))
//     store.register(interceptor: RecordingInterceptor(recorder: recorder))
//
// where `AppAction` is `RegisteredAction<AppActions>` and `AppActions` lists your action structs (Fluxor's actions
// are `Encodable`; replay needs them `Codable`).
//
// What it records: every action the store dispatches, with the state after its reducers ran, numbered in order. An
// action whose type is not `Codable` or not listed is recorded as a `gap` of reason `notEncodable` naming its type;
// the reducers still ran it, and replay resumes at the next action's state.
// What it cannot know: Fluxor's interceptors are not told whether an effect dispatched the action, so every action
// is recorded as dispatched by the app, including those your effects dispatch.
// Register it right after creating the store's recorder, from the state the store holds then.

import protocol StoreKitCore.ActionRegistry
import struct StoreKitCore.RegisteredAction
import class StoreKitCore.SessionRecorder

#if STOREKIT_ADAPTER_STAND_IN
    import FluxorStandIn  // this repository's tests compile the adapter against a stand-in of Fluxor
#else
    import Fluxor
#endif

/// A Fluxor interceptor that records each action the store dispatches, with the state after it.
struct RecordingInterceptor<State: Encodable & Sendable, Registry: ActionRegistry>: Interceptor {
    /// The recorder the actions go to.
    let recorder: SessionRecorder<State, RegisteredAction<Registry>>

    /// Hands the action and the state after it to the recorder.
    func actionDispatched(action: Action, oldState: State, newState: State) {
        recorder.record(anyAction: action, state: newState)
    }
}
