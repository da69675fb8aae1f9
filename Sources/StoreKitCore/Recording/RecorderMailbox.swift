import Foundation
import StoreKitSystem

/// What a ``SessionRecorder``'s app side and its background thread (a ``RecorderWorker``) share, behind one lock:
/// the queue of actions (and effect lines) waiting to be delivered, the bound on their memory, the statistics, the request to end,
/// and whether the background thread needs a signal to see new actions.
///
/// The app's threads post actions and never wait here but for the lock, which the background thread holds only to
/// take the whole queue at once or to update a count. The background thread waits here for actions, and
/// ``finish(reason:timeout:)`` for the background thread to finish.
final class RecorderMailbox<State, Action>: @unchecked Sendable {
    /// How long the background thread waits after a batch before it looks again. Under a stream of dispatches the
    /// actions gather meanwhile and no dispatch pays for waking it; when the queue is still empty afterwards, it
    /// sleeps until the next action wakes it.
    private static var napSeconds: Double { 0.002 }
    /// Fewer queued actions than this after a batch mean the background thread has caught up.
    private static var napBelow: Int { 1 }
    /// How long the app's threads may post nothing before the background thread releases the retired states
    /// itself. Until then they wait for the app's next posts: freed all at once, their memory would go back to the
    /// system, and the app's next burst of dispatches would fault it in again, page by page.
    private static var idleSecondsBeforeReleasing: Double { 1 }
    /// How long the first look takes while the background thread waits for a burst of posts to pause; each look
    /// after it takes twice the one before, so a long burst wakes the background thread a few times, not once a
    /// millisecond: each time it wakes, it takes the lock the app's posts take.
    private static var burstNapSeconds: Double { 0.001 }
    /// How many events a second make a burst: the background thread encodes a steadier stream as it comes.
    private static var burstPostsPerSecond: Double { 2000 }
    /// The longest the background thread waits for a burst to pause before it encodes alongside it.
    private static var longestYieldSeconds: Double { 0.05 }

    private let condition = NSCondition()
    // Guarded by `condition`, and not checked for exclusivity at run time (docs/performance.md): every access holds
    // the lock, which is not recursive, so no access can overlap another.
    private let queue = RecorderQueue<State, Action>(capacity: RecorderQueue<State, Action>.initialCapacity)
    /// The actions and states the background thread has encoded, released by the app's posts one at a time.
    private let retired = RetiredStates<State, Action>(capacity: RecorderQueue<State, Action>.initialCapacity)
    @exclusivity(unchecked) private var budget: RecorderMemoryBudget
    @exclusivity(unchecked) private var stats = RecorderStatistics()
    @exclusivity(unchecked) private var worker = WorkerState.busy
    @exclusivity(unchecked) private var endReason: EndEvent.Reason?
    /// See ``deliveryDeadline``.
    @exclusivity(unchecked) private var deliveryDeadlineNanoseconds: UInt64?
    /// The sequence numbers of the actions dropped since the last one queued, to be queued as one `gap`.
    @exclusivity(unchecked) private var bufferFullRange: ClosedRange<Int>?
    /// The store's sequence number before the first action recorded: the session numbers its actions from 1.
    @exclusivity(unchecked) private var baseStoreSequence: Int?
    /// The session's sequence number of the last action posted (queued or dropped).
    @exclusivity(unchecked) private var lastSequence = 0
    /// Whether the session holds effect lines and the `effect` of actions (format 2).
    private let recordsEffects: Bool
    /// Whether the session holds notes (format 3).
    private let recordsNotes: Bool
    /// The names of the effects that sent queued actions; a queued action numbers its effect's name from 1.
    @exclusivity(unchecked) private var effectNames: [String] = []
    /// The effect runs that lost a line to a full queue: their later lines are dropped too, so that no run the
    /// session holds skips a call.
    @exclusivity(unchecked) private var runsMissingLines: Set<EffectRunKey> = []
    /// The runs that lost a line since the last `gap` queued. Replay would wait for the input the run lost and call
    /// the next action it sent unsent, so that action is dropped, and the `gap` that takes its place tells replay
    /// the run is cut (any gap does: replay checks no run across one).
    @exclusivity(unchecked) private var runsOwedAGap: Set<EffectRunKey> = []
    /// Whether the background thread stopped waiting for a burst of posts to pause before the burst did (see
    /// ``yieldToABurstOfPosts()``); until it finds the queue empty, it encodes alongside the burst.
    @exclusivity(unchecked) private var outlastedABurst = false
    /// The background thread's own pile, to release the retired states outside the lock when no post does (see
    /// ``releaseRetiredOnTheBackgroundThread()``); touched only by that thread.
    private let retiredOffTheLock = RetiredStates<State, Action>(capacity: 1)

    /// Creates an empty mailbox whose queue is bounded by `budget`; with `recordsEffects`, it queues effect lines
    /// and the effect that sent an action, and with `recordsNotes`, notes.
    init(budget: RecorderMemoryBudget, recordsEffects: Bool, recordsNotes: Bool = false) {
        self.budget = budget
        self.recordsEffects = recordsEffects
        self.recordsNotes = recordsNotes
    }

    // MARK: - The app's side

    /// What the recorder has done so far.
    var statistics: RecorderStatistics {
        condition.withLock { stats }
    }

    /// Queues an action and the state after it, numbered in the session from its number in the store, or counts it
    /// as dropped when the queue is full; wakes the background thread when it would not look otherwise. Does
    /// nothing once the recorder is ending.
    ///
    /// The helpers it calls on the way (and the queue's and the pile's) are inlined into it: this generic code is
    /// compiled once for every app's types, and each call between them cost a whole call sequence on every
    /// dispatch (docs/performance.md).
    func post(_ action: Action, state: State, context: DispatchContext, time: Double) {
        condition.lock()
        defer { condition.unlock() }
        guard endReason == nil else { return }
        let base = baseStoreSequence ?? (context.sequence - 1)
        baseStoreSequence = base
        let origin: ActionEvent.Origin
        switch context.origin {
        case .app: origin = .app
        case .effect(let cause): origin = .effect(cause: cause > base ? cause - base : nil)
        }
        let effect = recordsEffects ? context.effect.map(effectNumber) ?? 0 : 0
        // A gap already waiting to be queued goes before this action, and does.
        let cutRun = !runsOwedAGap.isEmpty && bufferFullRange == nil
            && isSentByARunOwedAGap(origin: origin, effect: context.effect)
        enqueue(
            action, state: state, sequence: context.sequence - base, time: time, origin: origin, effect: effect,
            dropping: cutRun)
    }

    /// Whether an action comes from an effect run in ``runsOwedAGap``. Call with the lock held.
    private func isSentByARunOwedAGap(origin: ActionEvent.Origin, effect: String?) -> Bool {
        guard case .effect(let cause?) = origin, let effect else { return false }
        return runsOwedAGap.contains(EffectRunKey(cause: cause, effect: effect))
    }

    /// Counts the action numbered `sequence` in the session as dropped because the queue is full (or was, for the
    /// run that sent it), to be written in the `gap` before the next action queued. Call with the lock held.
    @inline(__always) private func drop(sequence: Int) {
        bufferFullRange = (bufferFullRange?.lowerBound ?? sequence)...sequence
        stats.droppedBufferFull += 1
    }

    /// Queues an action that the caller numbers by the order of its posts (an adapter's store, which has no
    /// sequence numbers of its own), as ``post(_:state:context:time:)`` does.
    /// - Returns: The action's sequence number in the session, or `nil` once the recorder is ending.
    func postNext(_ action: Action, state: State, origin: ActionEvent.Origin, time: Double) -> Int? {
        condition.lock()
        defer { condition.unlock() }
        guard endReason == nil else { return nil }
        baseStoreSequence = baseStoreSequence ?? 0
        let sequence = lastSequence + 1
        let cause: Int? =
            switch origin {
            case .app: nil
            case .effect(let cause): cause.flatMap { (1..<sequence).contains($0) ? $0 : nil }
            }
        let checkedOrigin: ActionEvent.Origin = origin == .app ? .app : .effect(cause: cause)
        enqueue(action, state: state, sequence: sequence, time: time, origin: checkedOrigin, effect: 0)
        return sequence
    }

    /// Queues a `gap` of one action the caller could not hand over (``GapEvent/Reason/notEncodable``), numbered
    /// as ``postNext(_:state:origin:time:)`` numbers actions, and counts it as seen and dropped.
    /// - Returns: Its sequence number in the session, or `nil` once the recorder is ending.
    func postSkipped(reason: GapEvent.Reason, message: String?) -> Int? {
        condition.lock()
        defer { condition.unlock() }
        guard endReason == nil else { return nil }
        baseStoreSequence = baseStoreSequence ?? 0
        lastSequence += 1
        stats.actionsSeen += 1
        stats.droppedNotEncodable += 1
        queueBufferFullGap()
        runsOwedAGap.removeAll()
        queue.append(
            gap: GapEvent(firstSequence: lastSequence, lastSequence: lastSequence, reason: reason, message: message))
        wakeWorkerIfNeeded()
        return lastSequence
    }

    /// Queues an action numbered `sequence` in the session, or counts it as dropped when the queue is full or when
    /// `dropping` says so. Call with the lock held.
    @inline(__always) private func enqueue(
        _ action: Action, state: State, sequence: Int, time: Double, origin: ActionEvent.Origin, effect: UInt16,
        dropping: Bool = false
    ) {
        lastSequence = sequence
        stats.actionsSeen += 1
        releaseRetiredStates()
        if dropping || budget.isFull(queuedEvents: queue.count) {
            guard budget.canKeepAction else {
                drop(sequence: sequence)
                return
            }
            // No room for its state, or the run that sent it owes a gap: the action goes in a gap that keeps it.
            queueBufferFullGap()
            runsOwedAGap.removeAll()
            budget.countKept()
            queue.appendKept(action: action, sequence: sequence, time: time, origin: origin, effect: effect)
            wakeWorkerIfNeeded()
            return
        }
        queueBufferFullGap()
        budget.countQueued()
        queue.append(action: action, state: state, sequence: sequence, time: time, origin: origin, effect: effect)
        wakeWorkerIfNeeded()
    }

    /// Releases one of the states the background thread has encoded on the posting thread: its memory goes where
    /// the app's next copy of the state takes memory from, and no thread races another over the reference counts
    /// the states share (``RetiredStates``). One per post, as each post adds one. Call with the lock held.
    @inline(__always) private func releaseRetiredStates() {
        if retired.release(atMost: 1) > 0 { budget.countReleased(1) }
    }

    /// Queues an input an effect run took, its cause numbered in the session like an effect action's, or counts it
    /// as dropped: when the queue is full, when the run lost a line before, or when its cause came before the
    /// recording. Does nothing in a format 1 session or once the recorder is ending.
    func post(_ call: EffectCallRecord, time: Double) {
        postEffectLine(storeCause: call.cause, effect: call.effect, endsRun: false) { cause in
            .call(
                EffectCallEvent(
                    cause: cause, effect: call.effect, index: call.index, name: call.name, time: time,
                    input: call.input, result: call.result))
        }
    }

    /// Queues the end of an effect run, or counts it as dropped, as a call is.
    func post(_ end: EffectEndRecord, time: Double) {
        postEffectLine(storeCause: end.cause, effect: end.effect, endsRun: true) { cause in
            .effectEnd(
                EffectEndEvent(
                    cause: cause, effect: end.effect, outcome: end.outcome, calls: end.calls, sent: end.sent,
                    time: time))
        }
    }

    /// Queues the effect line `line` builds for its cause in the session, unless it is dropped.
    ///
    /// The line is built before the lock is taken, numbered by the store's cause, which is the session's when the
    /// recording began with the store's first action: building it (its box, its strings and values retained) took
    /// longer than all the rest, and an app's dispatch waiting for the lock meanwhile was a blocking wait
    /// (docs/performance.md). It is built again under the lock only when the session numbers the cause otherwise.
    private func postEffectLine(storeCause: Int, effect: String, endsRun: Bool, line: (Int) -> QueuedEvent) {
        guard recordsEffects else { return }
        let built = line(storeCause)
        condition.lock()
        defer { condition.unlock() }
        guard endReason == nil else { return }
        guard let base = baseStoreSequence, storeCause > base else {
            stats.effectLinesDropped += 1
            return
        }
        let run = EffectRunKey(cause: storeCause - base, effect: effect)
        if runsMissingLines.contains(run) {
            stats.effectLinesDropped += 1
            if endsRun {
                runsMissingLines.remove(run)
                runsOwedAGap.remove(run)
            }
            return
        }
        if budget.isFull(queuedEvents: queue.count) {
            stats.effectLinesDropped += 1
            if !endsRun {
                runsMissingLines.insert(run)
                runsOwedAGap.insert(run)
            }
            return
        }
        queueBufferFullGap()
        queue.append(effectLine: run.cause == storeCause ? built : line(run.cause))
        wakeWorkerIfNeeded()
    }

    /// Queues a note after the actions posted so far, counted by its estimated size within the queue's bound, or
    /// counts it as dropped: when the queue is full, when the session does not record notes, or once the recorder
    /// is ending.
    func post(_ note: NoteEvent) {
        let bytes = note.estimatedBytes
        condition.lock()
        defer { condition.unlock() }
        guard recordsNotes else {
            // Said once where the app can read it, so a note that never shows up is not a mystery.
            if stats.notesDropped == 0 { stats.lastError = Self.notesNotRecorded }
            stats.notesDropped += 1
            return
        }
        guard endReason == nil, !budget.isFull(queuedEvents: queue.count, addingNoteBytes: bytes) else {
            stats.notesDropped += 1
            return
        }
        queueBufferFullGap()
        budget.countQueuedNote(bytes: bytes)
        queue.append(note: note)
        wakeWorkerIfNeeded()
    }

    /// The error a note posted to a recorder that does not record notes puts in the statistics.
    static var notesNotRecorded: String {
        "a note was dropped: this recorder does not record notes (set SessionRecorder.Configuration.recordsNotes)"
    }

    /// The number of the effect `name` among ``effectNames``, from 1, adding it the first time; 0 (no name) past
    /// the numbers an event holds. Call with the lock held.
    private func effectNumber(_ name: String) -> UInt16 {
        if let index = effectNames.firstIndex(of: name) { return UInt16(index + 1) }
        guard effectNames.count < Int(UInt16.max) else { return 0 }
        effectNames.append(name)
        return UInt16(effectNames.count)
    }

    /// Asks the background thread to deliver what is queued and end the session with `reason` (only the first
    /// request counts) within `timeout`, then waits until it has or until the timeout ran out.
    ///
    /// The background thread delivers until ``deliveryDeadline``, a part of `timeout` before its end (a fifth, at
    /// most a second), and then writes what it could not deliver as gaps, and an `end` of reason
    /// ``EndEvent/Reason/timedOut``, in the time left.
    /// - Returns: The statistics at that moment.
    func finish(reason: EndEvent.Reason, timeout: Duration) -> RecorderStatistics {
        let timeoutNanoseconds = max(0, Self.nanoseconds(timeout))
        let deadline = Date(timeIntervalSinceNow: Double(timeoutNanoseconds) / 1e9)
        condition.lock()
        defer { condition.unlock() }
        if endReason == nil {
            endReason = reason
            let reserve = min(timeoutNanoseconds / 5, 1_000_000_000)
            deliveryDeadlineNanoseconds = MonotonicClock.nanoseconds() &+ UInt64(timeoutNanoseconds - reserve)
            queueBufferFullGap()
            condition.broadcast()
        }
        while !stats.isFinished {
            if !condition.wait(until: deadline) { break }
        }
        return stats
    }

    /// The whole nanoseconds of `duration`, saturating.
    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, overflowed) = duration.components.seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflowed else { return seconds < 0 ? 0 : .max }
        return seconds.addingReportingOverflow(duration.components.attoseconds / 1_000_000_000).partialValue
    }

    /// Moves a pending buffer-full range into the queue as a gap; call with the lock held.
    @inline(__always) private func queueBufferFullGap() {
        guard let range = bufferFullRange else { return }
        bufferFullRange = nil
        runsOwedAGap.removeAll()
        queue.append(gap: GapEvent(firstSequence: range.lowerBound, lastSequence: range.upperBound, reason: .bufferFull))
    }

    /// Signals the background thread when it sleeps; when it naps and the queue is half full (by either of its
    /// bounds) or three quarters through the room it has (so the background thread takes it before the app's
    /// thread must grow it); and when it waits for a burst to pause and the queue is half full; call with the lock
    /// held after adding to the queue.
    @inline(__always) private func wakeWorkerIfNeeded() {
        switch worker {
        case .busy:
            return
        case .napping:
            guard budget.isHalfFull(queuedEvents: queue.count) || queue.actionCount * 4 >= queue.capacity * 3
            else { return }
        case .yielding:
            guard budget.isHalfFull(queuedEvents: queue.count) else { return }
        case .sleeping:
            break
        }
        worker = .busy
        condition.signal()
    }

    // MARK: - The background thread's side

    /// Waits until actions are queued or the recorder is ending, then swaps the queue's contents with `batch`
    /// (empty), so the app's threads go on appending to the batch's storage.
    ///
    /// After a batch that delivered something (`nappingFirst`), waits a moment before looking, unless actions are
    /// already queued: more may be streaming in, better taken together than a few at a time through the lock.
    /// With `wakingAfter`, an empty batch is taken after that many seconds without actions (the transport's next
    /// reconnect is due). While it waits, and once the app's threads have posted nothing for a while, it releases
    /// the states they have not released (``idleSecondsBeforeReleasing``). While the app's threads post in a
    /// burst, it waits for the burst to pause before taking the queue (``yieldToABurstOfPosts()``).
    /// - Returns: Why the session ends, once the recorder is ending (what is in `batch` then is the last), and the
    ///   names the batch's actions number their effects by.
    func takeBatch(
        into batch: RecorderQueue<State, Action>, nappingFirst: Bool, wakingAfter: Double? = nil
    ) -> (ending: EndEvent.Reason?, effectNames: [String]) {
        condition.lock()
        defer { condition.unlock() }
        if nappingFirst && queue.count < Self.napBelow && endReason == nil {
            worker = .napping
            _ = condition.wait(until: Date(timeIntervalSinceNow: Self.napSeconds))
        }
        if queue.isEmpty { outlastedABurst = false }
        let wakeAt = wakingAfter.map { Date(timeIntervalSinceNow: $0) }
        var releaseAt = retired.count > 0 ? Date(timeIntervalSinceNow: Self.idleSecondsBeforeReleasing) : nil
        while queue.isEmpty && endReason == nil {
            worker = .sleeping
            guard let until = [wakeAt, releaseAt].compactMap({ $0 }).min() else {
                condition.wait()
                continue
            }
            if condition.wait(until: until) { continue }
            if let due = releaseAt, due <= Date() {
                releaseRetiredOnTheBackgroundThread()
                releaseAt = nil
            }
            if let wakeAt, wakeAt <= Date() { break }
        }
        yieldToABurstOfPosts()
        worker = .busy
        queue.swapContents(with: batch)
        return (endReason, effectNames)
    }

    /// Waits while the app's threads post in a burst, in naps from ``burstNapSeconds`` on, each twice the one
    /// before, until a nap brings fewer events than ``burstPostsPerSecond`` would in its time, half the queue's
    /// bound is used, the recorder is ending, or ``longestYieldSeconds`` have passed. Call with the lock held and
    /// events queued; it is let go meanwhile. A burst that outlasts the wait (``outlastedABurst``) is not waited for
    /// again until the background thread has caught up with it: waiting at every batch of a long burst would leave
    /// it further behind each time.
    ///
    /// Meanwhile the app's thread grows the queue when it runs out of room, once per doubling, and the batch handed
    /// back next has room for twice this one.
    ///
    /// Encoding reads the parts of the states that the app's next states share (the same strings and arrays), and
    /// each dispatch that copies the state updates their reference counts: done side by side on two cores, every
    /// part the background thread has read since the app's last dispatch moves back to the app's core at its next
    /// one, which slowed the app's dispatches (docs/performance.md). Encoding once the burst pauses costs the app
    /// nothing. A slower, steady stream of posts is taken at once, as before: encoding each action before the next
    /// one comes overlaps no dispatch.
    private func yieldToABurstOfPosts() {
        guard !queue.isEmpty, !outlastedABurst else { return }
        let giveUpAt = Date(timeIntervalSinceNow: Self.longestYieldSeconds)
        var nap = Self.burstNapSeconds
        while endReason == nil {
            if budget.isHalfFull(queuedEvents: queue.count) { break }
            let before = queue.count
            let napStart = MonotonicClock.nanoseconds()
            worker = .yielding
            _ = condition.wait(until: min(Date(timeIntervalSinceNow: nap), giveUpAt))
            let napped = Double(MonotonicClock.nanoseconds() &- napStart) / 1e9
            if Double(queue.count - before) < Self.burstPostsPerSecond * napped { return }
            if Date() >= giveUpAt { break }
            nap *= 2
        }
        outlastedABurst = endReason == nil
    }

    /// Whether half the queue's bound is used: the background thread should take the queue before it does more of
    /// anything else.
    var isHalfFull: Bool {
        condition.withLock { budget.isHalfFull(queuedEvents: queue.count) }
    }

    /// Hands the actions and states of `batch` before `end`, encoded, to the app's posts to release (they count as
    /// pending until then), and, with `encodedBytes`, estimates the memory of the pending ones by it (see
    /// ``RecorderMemoryBudget/estimate(encodedBytes:)``).
    func retire(_ batch: RecorderQueue<State, Action>, before end: Int, estimatingBy encodedBytes: Int?) {
        condition.withLock {
            batch.retire(before: end, onto: retired)
            if let encodedBytes { budget.estimate(encodedBytes: encodedBytes) }
        }
    }

    /// Releases the retired states on the background thread, outside the lock, once the app's threads have posted
    /// nothing for a while (``idleSecondsBeforeReleasing``): no post would release them, and none is slowed. Call
    /// with the lock held; it is let go meanwhile.
    private func releaseRetiredOnTheBackgroundThread() {
        worker = .busy
        retired.swapContents(with: retiredOffTheLock)
        condition.unlock()
        let released = retiredOffTheLock.releaseAll()
        condition.lock()
        budget.countReleased(released)
    }

    /// Counts `count` actions kept without their states as delivered: no longer pending.
    func releaseKeptActions(_ count: Int) {
        guard count > 0 else { return }
        condition.withLock { budget.countKeptReleased(count) }
    }

    /// Counts notes of an estimated `bytes` in all as encoded: no longer pending.
    func releaseNotes(bytes: Int) {
        guard bytes > 0 else { return }
        condition.withLock { budget.countReleasedNotes(bytes: bytes) }
    }

    /// Estimates the memory of a pending action by `encodedBytes` (the initial state's) until an action is encoded.
    func estimateUnlessEstimated(encodedBytes: Int) {
        condition.withLock {
            if !budget.hasEstimate { budget.estimate(encodedBytes: encodedBytes) }
        }
    }

    /// The monotonic time, in nanoseconds, after which the background thread stops delivering and writes what is
    /// left as gaps; `nil` until ``finish(reason:timeout:)`` is called.
    var deliveryDeadline: UInt64? {
        condition.withLock { deliveryDeadlineNanoseconds }
    }

    /// The most memory the pending actions were estimated to hold at once.
    var peakQueuedBytes: Int {
        condition.withLock { budget.peakBytes }
    }

    /// Changes the statistics.
    func updateStatistics(_ update: (inout RecorderStatistics) -> Void) {
        condition.withLock { update(&stats) }
    }

    /// Marks the recorder finished, which ends the wait of ``finish(reason:timeout:)``.
    func markFinished() {
        condition.withLock {
            budget.countReleased(retired.releaseAll())
            stats.isFinished = true
            condition.broadcast()
        }
    }
}

/// What the background thread is doing, so a post wakes it only when it would otherwise not look.
private enum WorkerState {
    /// Delivering, or about to look at the queue: it sees new actions without a signal.
    case busy
    /// Waiting a moment after a batch for more actions to gather: woken early only when the queue fills up.
    case napping
    /// Waiting for a burst of posts to pause before taking the queue: woken early only when the queue is half full.
    case yielding
    /// Waiting with nothing to do: the next action must wake it.
    case sleeping
}

/// One run of an effect in a session: the sequence number of the action that started it, and the effect's name.
struct EffectRunKey: Hashable {
    /// The run's cause, as the session numbers it.
    var cause: Int
    /// The effect's name.
    var effect: String
}
