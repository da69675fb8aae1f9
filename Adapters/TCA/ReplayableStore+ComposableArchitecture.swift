// StoreKit Replay's replay host side of a Composable Architecture app. Copy this file into your replay host target
// (it links StoreKitReplay, ComposableArchitecture and the module that holds your feature). docs/adapters.md has
// the whole walk-through.
//
//     ReplayHost.run(stores: [.composable(id: "app", reducer: AppFeature())])
//
// Replay runs your reducer on each recorded action and drops the effects it returns: the actions they sent are in
// the session like any other, and are fed to the reducer in their place.

import struct StoreKitReplay.ReplayableStore

#if STOREKIT_ADAPTER_STAND_IN
    import ComposableArchitectureStandIn  // this repository's tests compile the adapter against a stand-in of TCA
#else
    import ComposableArchitecture
#endif

extension ReplayableStore {
    /// A replayable store that reruns recorded sessions through a feature's reducer.
    /// - Parameters:
    ///   - id: The store id the recorder's configuration names.
    ///   - reducer: The feature's reducer, unwrapped.
    static func composable<Feature: Reducer & Sendable>(id: String, reducer: Feature)
        -> ReplayableStore
    where Feature.State: Codable & Equatable & Sendable, Feature.Action: Codable & Sendable {
        ReplayableStore(
            id: id,
            reducer: .init { (state: inout Feature.State, action: Feature.Action) in
                _ = reducer.reduce(into: &state, action: action)
            })
    }
}
