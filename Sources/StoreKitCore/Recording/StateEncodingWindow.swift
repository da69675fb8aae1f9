/// The states of the next actions of a recorder's batch, encoded ahead on two threads by a ``StateEncodingPool``
/// while the batch is long, then handed out one by one, in order, to the recorder's sequential path.
///
/// A window holds at most ``maximumStates`` states and about ``maximumBytes`` of their bytes, and at most two
/// windows are encoded at a time (the one handed out, the next one being encoded), so encoding ahead keeps the
/// memory the recorder holds bounded whatever the batch's length. A batch (or its rest) shorter than
/// ``minimumRemaining`` is not encoded ahead: it costs what it costs on one thread.
struct StateEncodingWindow<State: Encodable & Sendable> {
    /// The fewest slots left in a batch for the next ones to be encoded ahead: below, handing a window to the
    /// second thread costs more than it saves.
    static var minimumRemaining: Int { 16 }
    /// The most states a window holds.
    static var maximumStates: Int { 32 }
    /// About the most bytes of encoded states a window holds.
    static var maximumBytes: Int { 1 << 19 }

    /// The encoded states of the window, by their slot in the batch, each removed as it is handed out.
    private var encoded: [Int: StateEncodingPool<State>.Encoded] = [:]
    /// The slot after the window's last.
    private var end = 0
    /// The slots of the next window, submitted to the pool and not collected yet, and the slot after its last.
    private var submitted: (slots: [Int], end: Int)?
    /// How many states the next window takes, by the size of the last window's.
    private var statesPerWindow = minimumRemaining

    /// The encoded state of the action in the batch's slot `index`, or `nil` when the caller encodes it itself.
    ///
    /// Past the window, collects the next one from the pool (submitting it first when none is, if at least
    /// ``minimumRemaining`` slots remain), then submits the one after, so the second thread encodes it while the
    /// caller writes the lines of this one. Call for the slots in order.
    /// - Parameters:
    ///   - index: The slot, before it is delivered.
    ///   - count: How many slots the batch has.
    ///   - pool: What encodes the windows.
    ///   - state: The state of the action in a slot, or `nil` for a slot that holds none.
    mutating func encodedState(
        at index: Int, of count: Int, with pool: StateEncodingPool<State>, state: (Int) -> State?
    ) -> StateEncodingPool<State>.Encoded? {
        if index >= end {
            if submitted == nil {
                guard count - index >= Self.minimumRemaining else { return nil }
                submit(from: index, of: count, to: pool, state: state)
            }
            guard let window = submitted else { return nil }
            submitted = nil
            let results = pool.collect()
            encoded = Dictionary(uniqueKeysWithValues: zip(window.slots, results))
            end = window.end
            let bytes = results.reduce(0) { total, result in total + ((try? result.get())?.count ?? 0) }
            let bytesPerState = max(1, bytes / max(1, results.count))
            statesPerWindow = min(Self.maximumStates, max(2, Self.maximumBytes / bytesPerState))
            if count - end >= Self.minimumRemaining { submit(from: end, of: count, to: pool, state: state) }
        }
        return encoded.removeValue(forKey: index)
    }

    /// Submits the states of the next ``statesPerWindow`` actions from slot `first` to the pool.
    private mutating func submit(
        from first: Int, of count: Int, to pool: StateEncodingPool<State>, state: (Int) -> State?
    ) {
        var slots: [Int] = []
        var states: [State] = []
        var slot = first
        while slot < count && states.count < statesPerWindow {
            if let state = state(slot) {
                slots.append(slot)
                states.append(state)
            }
            slot += 1
        }
        pool.submit(states)
        submitted = (slots, slot)
    }
}
