/// The bound on the actions a recorder holds before its background thread has delivered them, and the count and
/// estimate it is checked against: a number of queued events (``SessionRecorder/Configuration/bufferCapacity``) or,
/// by default, bytes (the queue's share of ``SessionRecorder/Configuration/memoryLimit``).
///
/// Under a byte bound each pending action (queued, or taken and not yet released) is estimated to hold its slot
/// plus the encoded size of the last action and state encoded; at most ``actionsPerEstimate`` actions are queued on
/// one estimate, so a state that grows while the background thread cannot look does not overrun the bound by more.
/// Queued notes count by their estimated size (``NoteEvent/estimatedBytes``) until the background thread encodes
/// them. A ``RecorderMailbox`` holds it under its lock.
struct RecorderMemoryBudget {
    /// How many actions may be queued on one estimate of their memory.
    static var actionsPerEstimate: Int { 4096 }

    /// The most events queued, when the bound is a number of them.
    let capacity: Int?
    /// The most bytes the pending actions may hold, without ``capacity``.
    let byteLimit: Int
    /// The memory of one queued action besides what its action and state point to.
    let slotBytes: Int
    /// The actions queued or being delivered whose states are not released yet.
    private(set) var pendingActions = 0
    /// The memory each pending action is estimated to hold.
    private(set) var bytesPerAction: Int
    /// The actions queued since ``bytesPerAction`` was last estimated.
    private(set) var queuedSinceEstimate = 0
    /// Whether ``bytesPerAction`` was estimated from an encoded size yet.
    private(set) var hasEstimate = false
    /// The estimated memory of the notes queued or being delivered.
    private(set) var pendingNoteBytes = 0
    /// The most memory the pending actions and notes were estimated to hold at once.
    private(set) var peakBytes = 0

    /// Creates a budget with nothing pending, estimating an action by a share of `byteLimit` until told better.
    init(capacity: Int?, byteLimit: Int, slotBytes: Int) {
        self.capacity = capacity
        self.byteLimit = byteLimit
        self.slotBytes = slotBytes
        bytesPerAction = max(slotBytes, byteLimit / Self.actionsPerEstimate)
    }

    /// Whether one more action would break the bound, with `queuedEvents` events queued.
    func isFull(queuedEvents: Int) -> Bool {
        capacity.map { queuedEvents >= $0 }
            ?? ((pendingActions + 1) * bytesPerAction + pendingNoteBytes > byteLimit
                || queuedSinceEstimate >= Self.actionsPerEstimate)
    }

    /// Whether a note of `bytes` would break the bound, with `queuedEvents` events queued.
    func isFull(queuedEvents: Int, addingNoteBytes bytes: Int) -> Bool {
        capacity.map { queuedEvents >= $0 } ?? (pendingActions * bytesPerAction + pendingNoteBytes + bytes > byteLimit)
    }

    /// Whether half the bound is used, with `queuedEvents` events queued.
    func isHalfFull(queuedEvents: Int) -> Bool {
        capacity.map { queuedEvents * 2 >= $0 }
            ?? ((pendingActions * bytesPerAction + pendingNoteBytes) * 2 >= byteLimit
                || queuedSinceEstimate * 2 >= Self.actionsPerEstimate)
    }

    /// Counts one more action queued.
    mutating func countQueued() {
        pendingActions += 1
        queuedSinceEstimate += 1
        peakBytes = max(peakBytes, pendingActions * bytesPerAction)
    }

    /// Counts a note of an estimated `bytes` queued.
    mutating func countQueuedNote(bytes: Int) {
        pendingNoteBytes += bytes
        peakBytes = max(peakBytes, pendingActions * bytesPerAction + pendingNoteBytes)
    }

    /// Counts notes of an estimated `bytes` in all as encoded.
    mutating func countReleasedNotes(bytes: Int) {
        pendingNoteBytes -= bytes
    }

    /// Counts `count` actions whose states were released.
    mutating func countReleased(_ count: Int) {
        pendingActions -= count
    }

    /// Takes `encodedBytes`, the encoded size of an action and its state, as what each pending action holds
    /// besides its slot.
    mutating func estimate(encodedBytes: Int) {
        hasEstimate = true
        bytesPerAction = slotBytes + encodedBytes
        queuedSinceEstimate = 0
        peakBytes = max(peakBytes, pendingActions * bytesPerAction)
    }
}
