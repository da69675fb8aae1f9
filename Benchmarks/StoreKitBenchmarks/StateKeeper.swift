import StoreKitCore

/// An interceptor that holds every state its store makes until the round after, and lets go of one of them at
/// each action then, newest first, as a recorder holds each state until its background thread has encoded it and
/// its app's next posts release them: what holding the states costs a dispatch, whoever holds them, without the
/// recorder's lock, queue, bookkeeping or encoding.
///
/// It is written for the benchmark's own types, not generic over them, so that its code is compiled for them, and
/// its arrays skip the run-time exclusivity checks, as the recorder's queue does. A generic keeper ran unspecialized
/// behind the store's call: its metadata lookups and exclusivity checks cost more than holding the states, and its
/// row read above the recorder's own (docs/performance.md, history).
///
/// Unchecked `Sendable`: the store calls it under its lock, and the benchmark ends a round on the dispatching
/// thread between rounds, so no two calls overlap.
final class StateKeeper: Interceptor, @unchecked Sendable {
    // Not checked for exclusivity at run time, as the recorder's queue is not: the checks cost more than holding.
    @exclusivity(unchecked) private var kept: [Inventory.State] = []
    @exclusivity(unchecked) private var letGo: [Inventory.State] = []

    init(capacity: Int) {
        kept.reserveCapacity(capacity)
        letGo.reserveCapacity(capacity)
    }

    func actionDispatched(
        _ action: Inventory.Action, oldState: Inventory.State, newState: Inventory.State, context: DispatchContext
    ) {
        kept.append(newState)
        if !letGo.isEmpty { letGo.removeLast() }
    }

    /// Ends a round: the states kept in it are let go of in the next.
    func endRound() {
        letGo.append(contentsOf: kept)
        kept.removeAll(keepingCapacity: true)
    }
}
