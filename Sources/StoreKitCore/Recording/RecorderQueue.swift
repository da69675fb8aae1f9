#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a ``RecorderQueue`` holds for one event, besides an action's action and state.
enum QueuedEvent {
    /// An action; its action and state are the queue's next ones. `effect` numbers the name of the effect that sent
    /// it among the recorder's effect names, from 1 (0 for none), so an event stays 32 bytes.
    case action(sequence: Int, time: Double, origin: ActionEvent.Origin, effect: UInt16 = 0)
    /// An action kept without its state, the queue having no room for more states; its action is the queue's next
    /// kept one (``RecorderQueue/keptAction(at:)``). The worker writes it in a `gap` that keeps its actions.
    case keptAction(sequence: Int, time: Double, origin: ActionEvent.Origin, effect: UInt16 = 0)
    /// A gap in the session; boxed, as gaps are rare, so an event takes 32 bytes instead of 48.
    indirect case gap(GapEvent)
    /// An input an effect run took; boxed like a gap.
    indirect case call(EffectCallEvent)
    /// The end of an effect run; boxed like a gap.
    indirect case effectEnd(EffectEndEvent)
    /// A note the app wrote; boxed like a gap.
    indirect case note(NoteEvent)
}

/// The events a ``SessionRecorder`` has queued for its background thread, or that thread's batch of them.
///
/// Two things keep an append cheap and steady on the dispatching thread:
/// - A recorder's code is generic over the app's types and compiled once for all of them, so every generic type it
///   touches there costs a lookup of that type's metadata (a hash-table search in the Swift runtime): an enum or a
///   tuple with an action and a state in its payload, an `Array<Action>` (whose `append` is then the standard
///   library's unspecialized one), a generic struct whose method is called (docs/performance.md has what they
///   cost). So this queue is a class, whose methods find the app's types in the instance itself, and it keeps the
///   events, actions and states in memory it manages.
/// - Memory reached for the first time costs a page fault (one every 128 events). So the storage is written to
///   once when it is made, and the background thread makes room ahead
///   (``makeRoom(forActions:givingBackAbove:)``) in the queue it hands back, so the dispatching thread rarely grows one.
final class RecorderQueue<State, Action> {
    /// How many actions a recorder's queue, and its background thread's batch, have room for at first (about 70 KB
    /// each for a small state).
    static var initialCapacity: Int { 1024 }

    /// The memory of one queued action besides what its action and state point to.
    static var slotBytes: Int {
        MemoryLayout<QueuedEvent>.stride + MemoryLayout<Action>.stride + MemoryLayout<State>.stride
    }

    /// The memory one action kept without its state is estimated to hold: its event's and its action's slots,
    /// and as much again for what its action points to (a string or two).
    static var keptSlotBytes: Int {
        MemoryLayout<QueuedEvent>.stride + MemoryLayout<Action>.stride + max(64, MemoryLayout<Action>.stride)
    }

    // Exclusivity is not checked at run time (docs/performance.md): a queue is used by one thread at a time, under
    // its recorder's lock or as the background thread's batch, and no method passes a property inout to code that
    // could touch it again.

    @exclusivity(unchecked) private var events: UnsafeMutablePointer<QueuedEvent>
    @exclusivity(unchecked) private var eventCapacity: Int
    /// How many events are queued.
    @exclusivity(unchecked) private(set) var count = 0
    @exclusivity(unchecked) private var actions: UnsafeMutablePointer<Action>
    @exclusivity(unchecked) private var states: UnsafeMutablePointer<State>
    /// How many actions (and states) the storage has room for.
    @exclusivity(unchecked) private(set) var capacity: Int
    /// How many actions (and states) are queued, released ones included.
    @exclusivity(unchecked) private(set) var actionCount = 0
    /// How many actions (and states), from the first, were released.
    @exclusivity(unchecked) private(set) var releasedCount = 0
    /// The actions kept without their states, in the order of their `.keptAction` events.
    @exclusivity(unchecked) private var keptActions: UnsafeMutablePointer<Action>
    @exclusivity(unchecked) private var keptCapacity: Int
    /// How many actions are kept without their states.
    @exclusivity(unchecked) private(set) var keptCount = 0

    /// Creates an empty queue with room for `capacity` actions and as many events, its memory written to once.
    init(capacity: Int) {
        self.capacity = max(1, capacity)
        eventCapacity = self.capacity
        events = Self.touchedStorage(capacity: eventCapacity)
        actions = Self.touchedStorage(capacity: self.capacity)
        states = Self.touchedStorage(capacity: self.capacity)
        keptCapacity = 0
        keptActions = .allocate(capacity: 1)
    }

    deinit {
        removeAll()
        events.deallocate()
        actions.deallocate()
        states.deallocate()
        keptActions.deallocate()
    }

    /// Whether no event is queued.
    var isEmpty: Bool { count == 0 }

    /// Queues an action and the state after it; `effect` numbers the name of the effect that sent it (see
    /// ``QueuedEvent/action(sequence:time:origin:effect:)``).
    @inline(__always) func append(
        action: Action, state: State, sequence: Int, time: Double, origin: ActionEvent.Origin, effect: UInt16 = 0
    ) {
        if actionCount == capacity { growActions() }
        (actions + actionCount).initialize(to: action)
        (states + actionCount).initialize(to: state)
        actionCount += 1
        append(.action(sequence: sequence, time: time, origin: origin, effect: effect))
    }

    /// Queues an action without the state after it (see ``QueuedEvent/keptAction(sequence:time:origin:effect:)``).
    func appendKept(action: Action, sequence: Int, time: Double, origin: ActionEvent.Origin, effect: UInt16 = 0) {
        if keptCount == keptCapacity { growKeptActions() }
        (keptActions + keptCount).initialize(to: action)
        keptCount += 1
        append(.keptAction(sequence: sequence, time: time, origin: origin, effect: effect))
    }

    /// The action of the `.keptAction` event with `index` among the `.keptAction` events, from 0.
    func keptAction(at index: Int) -> Action {
        precondition(index >= 0 && index < keptCount, "kept action \(index) of a recorder's queue of \(keptCount)")
        return keptActions[index]
    }

    /// Queues a gap.
    func append(gap: GapEvent) {
        append(.gap(gap))
    }

    /// Queues an effect run's line, built by the caller (who may build it before taking its lock): an input the run
    /// took, or its end.
    func append(effectLine: QueuedEvent) {
        switch effectLine {
        case .call, .effectEnd: append(effectLine)
        case .action, .keptAction, .gap, .note:
            preconditionFailure("a recorder's queue was given \(effectLine) as an effect line")
        }
    }

    /// Queues a note.
    func append(note: NoteEvent) {
        append(.note(note))
    }

    @inline(__always) private func append(_ event: QueuedEvent) {
        if count == eventCapacity { growEvents() }
        (events + count).initialize(to: event)
        count += 1
    }

    /// The event at `index`, from 0.
    func event(at index: Int) -> QueuedEvent {
        precondition(index >= 0 && index < count, "event \(index) of a recorder's queue of \(count)")
        return events[index]
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

    /// Moves the actions and states before `end` (indices among the `.action` events) onto `pile`, to be released
    /// there, so the queue no longer holds them, as after ``release(before:)``.
    func retire(before end: Int, onto pile: RetiredStates<State, Action>) {
        let end = min(end, actionCount)
        guard releasedCount < end else { return }
        pile.take(end - releasedCount, actions: actions + releasedCount, states: states + releasedCount)
        releasedCount = end
    }

    /// Empties the queue, keeping its storage.
    func removeAll() {
        release(before: actionCount)
        keptActions.deinitialize(count: keptCount)
        keptCount = 0
        events.deinitialize(count: count)
        count = 0
        actionCount = 0
        releasedCount = 0
    }

    /// Gives this empty queue room for `wanted` actions and as many events, written to once, so that the
    /// dispatching thread, which appends to it later, neither grows it (copying what it holds) nor faults its pages
    /// in; storage with room for more than `limit` is given back first. Call where a pause does not matter: on the
    /// background thread. Room for more than `limit` kept actions goes back too.
    func makeRoom(forActions wanted: Int, givingBackAbove limit: Int) {
        precondition(isEmpty, "a recorder's queue makes room only when empty")
        if keptCapacity > limit {
            // Room a burst's kept actions took goes back; the next burst grows it again.
            keptActions.deallocate()
            keptActions = .allocate(capacity: 1)
            keptCapacity = 0
        }
        let wanted = max(1, wanted)
        let givesBack = capacity > limit || eventCapacity > limit
        guard givesBack || wanted > capacity || wanted > eventCapacity else { return }
        let actionRoom = givesBack ? wanted : max(wanted, capacity)
        let eventRoom = givesBack ? wanted : max(wanted, eventCapacity)
        events.deallocate()
        actions.deallocate()
        states.deallocate()
        events = Self.touchedStorage(capacity: eventRoom)
        actions = Self.touchedStorage(capacity: actionRoom)
        states = Self.touchedStorage(capacity: actionRoom)
        eventCapacity = eventRoom
        capacity = actionRoom
    }

    /// Exchanges everything this queue holds with `other`.
    func swapContents(with other: RecorderQueue) {
        swap(&events, &other.events)
        swap(&eventCapacity, &other.eventCapacity)
        swap(&count, &other.count)
        swap(&actions, &other.actions)
        swap(&states, &other.states)
        swap(&capacity, &other.capacity)
        swap(&actionCount, &other.actionCount)
        swap(&releasedCount, &other.releasedCount)
        swap(&keptActions, &other.keptActions)
        swap(&keptCapacity, &other.keptCapacity)
        swap(&keptCount, &other.keptCount)
    }

    /// Doubles the room for actions and states, keeping the unreleased ones at their indices.
    private func growActions() {
        let newCapacity = capacity * 2
        let newActions = UnsafeMutablePointer<Action>.allocate(capacity: newCapacity)
        let newStates = UnsafeMutablePointer<State>.allocate(capacity: newCapacity)
        let live = actionCount - releasedCount
        (newActions + releasedCount).moveInitialize(from: actions + releasedCount, count: live)
        (newStates + releasedCount).moveInitialize(from: states + releasedCount, count: live)
        // Faulting the new pages in now costs this one append what the next appends would each pay for theirs.
        Self.touch(newActions, from: actionCount, to: newCapacity)
        Self.touch(newStates, from: actionCount, to: newCapacity)
        actions.deallocate()
        states.deallocate()
        actions = newActions
        states = newStates
        capacity = newCapacity
    }

    /// Doubles the room for kept actions (from none, room for the queue's first capacity). Kept actions come only
    /// when the queue has no room for states, so their storage is not touched ahead like the rest.
    private func growKeptActions() {
        let newCapacity = max(Self.initialCapacity, keptCapacity * 2)
        let newKept = UnsafeMutablePointer<Action>.allocate(capacity: newCapacity)
        newKept.moveInitialize(from: keptActions, count: keptCount)
        keptActions.deallocate()
        keptActions = newKept
        keptCapacity = newCapacity
    }

    /// Doubles the room for events.
    private func growEvents() {
        let newCapacity = eventCapacity * 2
        let newEvents = UnsafeMutablePointer<QueuedEvent>.allocate(capacity: newCapacity)
        newEvents.moveInitialize(from: events, count: count)
        Self.touch(newEvents, from: count, to: newCapacity)
        events.deallocate()
        events = newEvents
        eventCapacity = newCapacity
    }

    /// New storage for `capacity` elements, written to.
    private static func touchedStorage<Element>(capacity: Int) -> UnsafeMutablePointer<Element> {
        let storage = UnsafeMutablePointer<Element>.allocate(capacity: max(1, capacity))
        touch(storage, from: 0, to: capacity)
        return storage
    }

    /// Writes zeros over the uninitialized elements `start..<end` of `storage`, so their pages are in memory.
    private static func touch<Element>(_ storage: UnsafeMutablePointer<Element>, from start: Int, to end: Int) {
        guard end > start else { return }
        memset(UnsafeMutableRawPointer(storage + start), 0, (end - start) * MemoryLayout<Element>.stride)
    }
}
