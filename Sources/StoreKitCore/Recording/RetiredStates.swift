/// The actions and states a recorder's background thread has encoded and no longer needs, waiting to be released
/// by the app's thread a few at a time (see ``RecorderMailbox``).
///
/// Releasing a state releases every part of it the app's next states still share (the same strings and arrays), and
/// gives its memory back to the allocator. Done on the background thread, that work raced the app's thread over the
/// same reference counts and the same allocator, in bursts, and slowed a run of the app's dispatches; done on the
/// app's thread, one or two per dispatch, it touches memory that thread already holds, and the memory goes back
/// where the app's next copy of the state takes it from.
///
/// Like ``RecorderQueue``, a class over memory it manages, so its methods find the app's types in the instance. It
/// is a stack: the order states are released in does not matter.
final class RetiredStates<State, Action> {
    // Exclusivity is not checked at run time, as in `RecorderQueue`: one thread at a time, under the mailbox's lock.
    @exclusivity(unchecked) private var actions: UnsafeMutablePointer<Action>
    @exclusivity(unchecked) private var states: UnsafeMutablePointer<State>
    @exclusivity(unchecked) private var capacity: Int
    /// How many actions (and states) wait to be released.
    @exclusivity(unchecked) private(set) var count = 0

    /// Creates an empty pile with room for `capacity` actions and states.
    init(capacity: Int) {
        self.capacity = max(1, capacity)
        actions = .allocate(capacity: self.capacity)
        states = .allocate(capacity: self.capacity)
    }

    deinit {
        releaseAll()
        actions.deallocate()
        states.deallocate()
    }

    /// Moves `count` actions and states from `actions` and `states` onto the pile, leaving that memory
    /// uninitialized; grows the pile when needed.
    func take(_ count: Int, actions source: UnsafeMutablePointer<Action>, states sourceStates: UnsafeMutablePointer<State>) {
        guard count > 0 else { return }
        if self.count + count > capacity { grow(toHold: self.count + count) }
        (actions + self.count).moveInitialize(from: source, count: count)
        (states + self.count).moveInitialize(from: sourceStates, count: count)
        self.count += count
    }

    /// Releases at most `limit` of the actions and states on the pile.
    /// - Returns: How many were released.
    @discardableResult
    @inline(__always) func release(atMost limit: Int) -> Int {
        let released = min(limit, count)
        guard released > 0 else { return 0 }
        count -= released
        (actions + count).deinitialize(count: released)
        (states + count).deinitialize(count: released)
        return released
    }

    /// Releases every action and state on the pile.
    /// - Returns: How many were released.
    @discardableResult
    func releaseAll() -> Int {
        release(atMost: count)
    }

    /// Exchanges everything this pile holds with `other`.
    func swapContents(with other: RetiredStates) {
        swap(&actions, &other.actions)
        swap(&states, &other.states)
        swap(&capacity, &other.capacity)
        swap(&count, &other.count)
    }

    /// Gives the pile room for at least `wanted` actions and states, keeping those it holds.
    private func grow(toHold wanted: Int) {
        var newCapacity = capacity
        while newCapacity < wanted { newCapacity *= 2 }
        let newActions = UnsafeMutablePointer<Action>.allocate(capacity: newCapacity)
        let newStates = UnsafeMutablePointer<State>.allocate(capacity: newCapacity)
        newActions.moveInitialize(from: actions, count: count)
        newStates.moveInitialize(from: states, count: count)
        actions.deallocate()
        states.deallocate()
        actions = newActions
        states = newStates
        capacity = newCapacity
    }
}
