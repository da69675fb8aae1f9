// StoreKit Replay's replay host side of a ReSwift app. Copy this file into your replay host target (it links
// StoreKitReplay, ReSwift and the module that holds your reducer and actions). docs/adapters.md has the whole
// walk-through.
//
//     let todos = ReplayableStore.reSwift(id: "todos", reducer: appReducer, actions: AppActions.self)
//     ReplayHost.run(stores: [todos])
//
// Replay decodes each recorded action through the registry and runs your ReSwift reducer on it; middleware and
// thunks do not run, because the actions they dispatched are in the session like any other.

import StoreKitCore
import StoreKitReplay

#if STOREKIT_ADAPTER_STAND_IN
    import ReSwiftStandIn  // this repository's tests compile the adapter against a stand-in of ReSwift
#else
    import ReSwift
#endif

extension ReplayableStore {
    /// A replayable store that reruns recorded sessions through a ReSwift reducer.
    /// - Parameters:
    ///   - id: The store id the recorder's configuration names.
    ///   - reducer: The app's ReSwift reducer (a function of the action and the state).
    ///   - actions: The registry of the app's action types, as the recorder uses it.
    static func reSwift<State: Codable & Equatable & Sendable, Registry: ActionRegistry>(
        id: String, reducer: @escaping @Sendable (Action, State?) -> State, actions: Registry.Type
    ) -> ReplayableStore {
        ReplayableStore(
            id: id,
            reducer: .init(pure: { (state: State, action: RegisteredAction<Registry>) in
                // Every registered type is one of the app's actions: the recorder took only those.
                guard let action = action.value as? Action else { return state }
                return reducer(action, state)
            }))
    }
}
