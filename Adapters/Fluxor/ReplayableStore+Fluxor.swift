// StoreKit Replay's replay host side of a Fluxor app. Copy this file into your replay host target (it links
// StoreKitReplay, Fluxor and the module that holds your reducers and actions). docs/adapters.md has the whole
// walk-through.
//
//     let todos = ReplayableStore.fluxor(id: "todos", actions: AppActions.self) { [todosReducer, filterReducer] }
//     ReplayHost.run(stores: [todos])
//
// Replay decodes each recorded action through the registry and runs your Fluxor reducers on it, in the order
// given; effects do not run, because the actions they dispatched are in the session like any other.

import protocol StoreKitCore.ActionRegistry
import struct StoreKitCore.RegisteredAction
import struct StoreKitReplay.ReplayableStore

#if STOREKIT_ADAPTER_STAND_IN
    import FluxorStandIn  // this repository's tests compile the adapter against a stand-in of Fluxor
#else
    import Fluxor
#endif

extension ReplayableStore {
    /// A replayable store that reruns recorded sessions through Fluxor reducers.
    /// - Parameters:
    ///   - id: The store id the recorder's configuration names.
    ///   - actions: The registry of the app's action types, as the recorder uses it.
    ///   - reducers: Makes the store's reducers, in the order the store registers them.
    static func fluxor<State: Codable & Equatable & Sendable, Registry: ActionRegistry>(
        id: String, actions: Registry.Type, reducers: @escaping @Sendable () -> [Reducer<State>]
    ) -> ReplayableStore {
        ReplayableStore(
            id: id,
            reducer: .init { (state: inout State, action: RegisteredAction<Registry>) in
                // Every registered type is one of the app's actions: the recorder took only those.
                guard let action = action.value as? Action else { return }
                for reducer in reducers() { reducer.reduce(&state, action) }
            })
    }
}
