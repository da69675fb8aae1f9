import StoreKitSystem

/// The values a selection makes of a store's states, as an `AsyncStream`: the current one first, then each one
/// that differs from the last. `Store` and store doubles (StoreKitTesting's `MockStore`) build `values(of:)` on it.
package enum DistinctValues {
    /// The stream of distinct values.
    /// - Parameters:
    ///   - value: The value of a state (an override may ignore the state it is given).
    ///   - subscribe: Calls its argument with the current state and registers it as an observer, in one step
    ///     under the store's lock, so no change falls in between; returns the observation.
    package static func stream<State, Value: Equatable & Sendable>(
        of value: @escaping @Sendable (State) -> Value,
        subscribe: (_ yieldIfNew: @escaping @Sendable (State) -> Void) -> StoreSubscription
    ) -> AsyncStream<Value> {
        AsyncStream { continuation in
            let last = Locked<Value?>(nil)
            let subscription = subscribe { state in
                let next = value(state)
                let isNew = last.withLock { previous in
                    guard previous != next else { return false }
                    previous = next
                    return true
                }
                if isNew { continuation.yield(next) }
            }
            continuation.onTermination = { _ in subscription.cancel() }
        }
    }
}
