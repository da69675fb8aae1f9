/// What a ``RecorderQueue`` holds for one event, besides an action's action and state.
enum QueuedEvent {
    /// An action; its action and state are the queue's next ones.
    case action(sequence: Int, time: Double, origin: ActionEvent.Origin)
    /// A gap in the session.
    case gap(GapEvent)
}

/// The events a ``SessionRecorder`` has queued for its background thread, or that thread's batch of them.
///
/// A recorder's code is generic over the app's types and compiled once for all of them, so every generic type it
/// touches on the dispatching thread costs a lookup of that type's metadata (a hash-table search in the Swift
/// runtime): an enum or a tuple with an action and a state in its payload, an `Array<Action>` whose `append` is the
/// standard library's unspecialized one, a generic struct whose method is called. Those lookups were a third of
/// what recording cost a dispatch of a small state. So this queue is a class, whose methods find the app's types in
/// the instance itself; it keeps the actions and states in memory it manages, apart from the events, which are
/// not generic.
final class RecorderQueue<State, Action> {
    // Exclusivity is not checked at run time (it cost a sixth of a small state's recording on the dispatching
    // thread): a queue is used by one thread at a time, under its recorder's lock or as the background thread's
    // batch, and no method passes a property inout to code that could touch it again.

    /// The events, in order.
    @exclusivity(unchecked) private(set) var events: [QueuedEvent] = []
    @exclusivity(unchecked) private var actions: UnsafeMutablePointer<Action>
    @exclusivity(unchecked) private var states: UnsafeMutablePointer<State>
    /// How many actions (and states) the storage has room for.
    @exclusivity(unchecked) private var capacity: Int
    /// How many actions (and states) are queued, released ones included.
    @exclusivity(unchecked) private(set) var actionCount = 0
    /// How many actions (and states), from the first, were released.
    @exclusivity(unchecked) private var releasedCount = 0

    /// Creates an empty queue with room for `capacity` actions before it grows.
    init(capacity: Int = 64) {
        self.capacity = max(1, capacity)
        actions = .allocate(capacity: self.capacity)
        states = .allocate(capacity: self.capacity)
    }

    deinit {
        removeAll(keptCapacity: 0)
        actions.deallocate()
        states.deallocate()
    }

    /// How many events are queued.
    var count: Int { events.count }
    /// Whether no event is queued.
    var isEmpty: Bool { events.isEmpty }

    /// Queues an action and the state after it.
    func append(action: Action, state: State, sequence: Int, time: Double, origin: ActionEvent.Origin) {
        if actionCount == capacity { grow() }
        (actions + actionCount).initialize(to: action)
        (states + actionCount).initialize(to: state)
        actionCount += 1
        events.append(.action(sequence: sequence, time: time, origin: origin))
    }

    /// Queues a gap.
    func append(gap: GapEvent) {
        events.append(.gap(gap))
    }

    /// The action of the `.action` event with `index` among the `.action` events, from 0; not released yet.
    func action(at index: Int) -> Action {
        precondition(index >= releasedCount && index < actionCount, "action \(index) of a recorder's queue is gone")
        return actions[index]
    }

    /// The state after the action at `index` (see ``action(at:)``); not released yet.
    func state(at index: Int) -> State {
        precondition(index >= releasedCount && index < actionCount, "state \(index) of a recorder's queue is gone")
        return states[index]
    }

    /// Releases the actions and states before `end` (indices among the `.action` events), so their memory goes
    /// before the queue is emptied.
    func release(before end: Int) {
        let end = min(end, actionCount)
        guard releasedCount < end else { return }
        (actions + releasedCount).deinitialize(count: end - releasedCount)
        (states + releasedCount).deinitialize(count: end - releasedCount)
        releasedCount = end
    }

    /// Empties the queue, keeping its storage unless it has room for more than `keptCapacity` actions.
    func removeAll(keptCapacity: Int) {
        release(before: actionCount)
        let keeps = capacity <= keptCapacity
        events.removeAll(keepingCapacity: keeps)
        actionCount = 0
        releasedCount = 0
        if !keeps && keptCapacity > 0 { replaceStorage(capacity: 64) }
    }

    /// Exchanges everything this queue holds with `other`.
    func swapContents(with other: RecorderQueue) {
        swap(&events, &other.events)
        swap(&actions, &other.actions)
        swap(&states, &other.states)
        swap(&capacity, &other.capacity)
        swap(&actionCount, &other.actionCount)
        swap(&releasedCount, &other.releasedCount)
    }

    /// Doubles the storage.
    private func grow() {
        replaceStorage(capacity: capacity * 2)
    }

    /// Moves the unreleased actions and states to new storage for `newCapacity` of them, at the same indices.
    private func replaceStorage(capacity newCapacity: Int) {
        let live = actionCount - releasedCount
        let newActions = UnsafeMutablePointer<Action>.allocate(capacity: newCapacity)
        let newStates = UnsafeMutablePointer<State>.allocate(capacity: newCapacity)
        (newActions + releasedCount).moveInitialize(from: actions + releasedCount, count: live)
        (newStates + releasedCount).moveInitialize(from: states + releasedCount, count: live)
        actions.deallocate()
        states.deallocate()
        actions = newActions
        states = newStates
        capacity = newCapacity
    }
}
