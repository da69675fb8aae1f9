/// The bound on the actions a recorder holds before its background thread has delivered them, and the count and
/// estimate it is checked against: a number of queued events (``SessionRecorder/Configuration/bufferCapacity``) or,
/// by default, bytes (the queue's share of ``SessionRecorder/Configuration/memoryLimit``).
///
/// Under a byte bound each pending action (queued, or taken and not yet released) is estimated to hold its slot
/// plus the encoded size of the last action and state encoded; at most ``actionsPerEstimate`` actions are queued on
/// one estimate, so a state that grows while the background thread cannot look does not overrun the bound by more.
/// Queued notes count by their estimated size (``NoteEvent/estimatedBytes``) until the background thread encodes
/// them. A ``RecorderMailbox`` holds it under its lock.
///
/// Under a byte bound that keeps actions (``keptActionBytes``), a third of it is kept for actions queued without
/// their states once the states fill the rest: tens of bytes each instead of a state, they let the session keep
/// every action of a burst, in a `gap` that keeps them, where it would otherwise lose them.
struct RecorderMemoryBudget {
    /// How many actions may be queued on one estimate of their memory.
    static var actionsPerEstimate: Int { 4096 }
    /// The share of a byte bound kept for actions without their states: one part in this many.
    static var keptShareDivisor: Int { 3 }

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
    /// The memory one action kept without its state is estimated to hold (its slots, and what it points to); `nil`
    /// when the budget keeps no actions without states (a bound by number of events keeps none).
    let keptActionBytes: Int?
    /// The actions queued or being delivered without their states.
    private(set) var pendingKept = 0

    /// Creates a budget with nothing pending, estimating an action by a share of `byteLimit` until told better;
    /// with `keptActionBytes` and no `capacity`, it keeps actions without their states in a third of the bound.
    init(capacity: Int?, byteLimit: Int, slotBytes: Int, keptActionBytes: Int? = nil) {
        self.capacity = capacity
        self.byteLimit = byteLimit
        self.slotBytes = slotBytes
        self.keptActionBytes = capacity == nil ? keptActionBytes : nil
        bytesPerAction = max(slotBytes, byteLimit / Self.actionsPerEstimate)
    }

    /// The part of the byte bound for actions with their states, and notes: all of it unless actions are kept.
    private var statesByteLimit: Int { keptActionBytes == nil ? byteLimit : byteLimit - keptByteLimit }
    /// The part of the byte bound for actions kept without their states.
    private var keptByteLimit: Int { byteLimit / Self.keptShareDivisor }

    /// Whether one more action would break the bound, with `queuedEvents` events queued.
    func isFull(queuedEvents: Int) -> Bool {
        capacity.map { queuedEvents >= $0 }
            ?? ((pendingActions + 1) * bytesPerAction + pendingNoteBytes > statesByteLimit
                || queuedSinceEstimate >= Self.actionsPerEstimate)
    }

    /// Whether one more action may be kept without its state (after ``isFull(queuedEvents:)`` said its state does
    /// not fit).
    var canKeepAction: Bool {
        guard let keptActionBytes else { return false }
        return (pendingKept + 1) * keptActionBytes <= keptByteLimit
    }

    /// Whether a note of `bytes` would break the bound, with `queuedEvents` events queued.
    func isFull(queuedEvents: Int, addingNoteBytes bytes: Int) -> Bool {
        capacity.map { queuedEvents >= $0 }
            ?? (pendingActions * bytesPerAction + pendingNoteBytes + bytes > statesByteLimit)
    }

    /// Whether half the bound is used, with `queuedEvents` events queued.
    func isHalfFull(queuedEvents: Int) -> Bool {
        capacity.map { queuedEvents * 2 >= $0 }
            ?? ((pendingActions * bytesPerAction + pendingNoteBytes) * 2 >= statesByteLimit
                || queuedSinceEstimate * 2 >= Self.actionsPerEstimate)
    }

    /// The memory the pending actions, notes and kept actions are estimated to hold.
    private var pendingBytes: Int {
        pendingActions * bytesPerAction + pendingNoteBytes + pendingKept * (keptActionBytes ?? 0)
    }

    /// Counts one more action queued.
    mutating func countQueued() {
        pendingActions += 1
        queuedSinceEstimate += 1
        peakBytes = max(peakBytes, pendingBytes)
    }

    /// Counts one more action kept without its state.
    mutating func countKept() {
        pendingKept += 1
        peakBytes = max(peakBytes, pendingBytes)
    }

    /// Counts `count` kept actions as delivered.
    mutating func countKeptReleased(_ count: Int) {
        pendingKept -= count
    }

    /// Counts a note of an estimated `bytes` queued.
    mutating func countQueuedNote(bytes: Int) {
        pendingNoteBytes += bytes
        peakBytes = max(peakBytes, pendingBytes)
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
        peakBytes = max(peakBytes, pendingBytes)
    }
}
