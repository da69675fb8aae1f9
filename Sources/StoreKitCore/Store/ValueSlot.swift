/// A value that may be absent, kept where generic code reads and changes it without asking the Swift runtime for
/// anything.
///
/// The store and the replayers are generic over the app's types and run unspecialized in the app: every use of an
/// `Optional<Action>` or `Optional<State>` stored property asks the runtime for that optional's metadata, a lookup
/// that costs about as much as decoding a small action, and on a store's dispatch contends with a recorder's
/// background thread (docs/performance.md). A slot holds its value in memory allocated once and says whether it is
/// filled with a flag; the value's own type it takes from the slot's class metadata.
package final class ValueSlot<Value> {
    private let storage = UnsafeMutablePointer<Value>.allocate(capacity: 1)
    /// Whether the slot holds a value. Exclusivity is not checked at run time (docs/performance.md): a slot is used by
    /// one thread at a time, under its owner's lock, and no method passes it inout to code that could touch it again.
    @exclusivity(unchecked) package private(set) var isFilled = false

    /// Creates an empty slot.
    package init() {}

    deinit {
        empty()
        storage.deallocate()
    }

    /// Puts `value` in the slot, in place of what it held.
    package func fill(_ value: Value) {
        if isFilled {
            storage.pointee = value
        } else {
            storage.initialize(to: value)
            isFilled = true
        }
    }

    /// Empties the slot.
    package func empty() {
        guard isFilled else { return }
        storage.deinitialize(count: 1)
        isFilled = false
    }

    /// The value in the slot, or `nil` when it is empty.
    package var value: Value? {
        isFilled ? storage.pointee : nil
    }

    /// The value in the slot, to read or change in place; the slot must be filled.
    package var filled: UnsafeMutablePointer<Value> {
        precondition(isFilled, "a value was used before it was set")
        return storage
    }
}
