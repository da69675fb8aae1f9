import StoreKitCore

/// An interceptor that holds every state its store makes until the round after, and lets go of one of them at
/// each action then, newest first, as a recorder holds each state until its background thread has encoded it and
/// its app's next posts release them: what holding the states costs a dispatch, whoever holds them, without the
/// recorder's lock, queue, bookkeeping or encoding. Its code is compiled for the benchmark's own types.
///
/// Unchecked `Sendable`: the store calls it under its lock, and the benchmark ends a round on the dispatching
/// thread between rounds, so no two calls overlap.
final class StateKeeper<State, Action>: Interceptor, @unchecked Sendable {
    private var kept: [State] = []
    private var letGo: [State] = []

    init(capacity: Int) {
        kept.reserveCapacity(capacity)
        letGo.reserveCapacity(capacity)
    }

    func actionDispatched(_ action: Action, oldState: State, newState: State, context: DispatchContext) {
        kept.append(newState)
        if !letGo.isEmpty { letGo.removeLast() }
    }

    /// Ends a round: the states kept in it are let go of in the next.
    func endRound() {
        letGo.append(contentsOf: kept)
        kept.removeAll(keepingCapacity: true)
    }
}
