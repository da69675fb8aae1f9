/// A store's observers in the order they subscribed, as a chain of links the store walks after every change.
///
/// Like ``InterceptorChain``: walking a dictionary of closures over the app's state type asks the Swift runtime for
/// that dictionary's metadata on every dispatch, a lookup in a cache the recorder's background thread reads too; a
/// link holds its closure in a field the compiler lays out itself, so walking the chain asks the runtime for nothing.
final class ObserverChain<State> {
    /// The subscription's number in its store.
    let id: UInt64
    /// What the observer does with each new state.
    let onChange: @Sendable (State) -> Void
    /// The link of the observer that subscribed after this one, if any.
    let next: ObserverChain?

    private init(id: UInt64, onChange: @escaping @Sendable (State) -> Void, next: ObserverChain?) {
        self.id = id
        self.onChange = onChange
        self.next = next
    }

    /// The chain `chain` (or none) with the observer `onChange`, numbered `id`, added at its end.
    static func appending(
        id: UInt64, _ onChange: @escaping @Sendable (State) -> Void, to chain: ObserverChain?
    ) -> ObserverChain {
        guard let chain else { return ObserverChain(id: id, onChange: onChange, next: nil) }
        return ObserverChain(id: chain.id, onChange: chain.onChange, next: appending(id: id, onChange, to: chain.next))
    }

    /// The chain `chain` without the observer numbered `id`; `nil` when none is left.
    static func removing(id: UInt64, from chain: ObserverChain?) -> ObserverChain? {
        guard let chain else { return nil }
        if chain.id == id { return chain.next }
        return ObserverChain(id: chain.id, onChange: chain.onChange, next: removing(id: id, from: chain.next))
    }

    /// Calls every observer from this one on with `state`, in the order they subscribed.
    func tell(_ state: State) {
        var link: ObserverChain? = self
        while let current = link {
            current.onChange(state)
            link = current.next
        }
    }
}
