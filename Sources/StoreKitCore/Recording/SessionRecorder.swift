import Foundation
import StoreKitJSON
import StoreKitSystem

/// An interceptor that records every action a store applies, with the state after it, as a session.
///
/// The app's thread only appends the action and the new state (a copy-on-write value, not a deep copy) to a
/// bounded queue; a background thread encodes them canonically and hands NDJSON lines to a ``SessionTransport``.
/// Nothing proportional to the state's size happens on the dispatching thread.
///
/// When the queue is full the recorder drops the action, counts it, and writes a `gap` line once there is room
/// again. The lines a transport has not confirmed as persisted are held, bounded in bytes
/// (``Configuration/unconfirmedBufferBytes``), and sent again after a reconnect from the receiver's last persisted
/// sequence number, so a `replayd` that is killed and restarted loses nothing; what the recorder no longer holds, or
/// what a transport that does not confirm failed to take, becomes a `gap`. The recorder never blocks, throws
/// into, or crashes the app, whatever happens to its transport.
///
/// ```swift
/// let recorder = store.startRecording(
///     SessionRecorder.Configuration(storeID: "todos", app: AppInfo(name: "TodoApp", version: "1.4")),
///     to: FileTransport(path: "/tmp/todos.jsonl"))
/// store.dispatch(.addTodo(title: "Milk"))
/// recorder.finish()
/// ```
///
/// > Warning: Register one recorder on one store. Call ``finish(reason:timeout:)`` when the session is over;
/// > a recorder that is never finished keeps its background thread and leaves the session without an `end` line.
public final class SessionRecorder<State: Encodable & Sendable, Action: Encodable & Sendable>: Interceptor,
    @unchecked Sendable
{
    /// How a recorder names and bounds its session.
    public struct Configuration: Sendable {
        /// The id of the replayable store that replays this session.
        public var storeID: String
        /// The app that records.
        public var app: AppInfo
        /// The session's id; a fresh UUID unless given.
        public var sessionID: String
        /// How many actions may wait for the background thread before new ones are dropped; `nil` (the default)
        /// bounds them by memory instead, with ``bufferBytes``.
        public var bufferCapacity: Int?
        /// Without a ``bufferCapacity``: the most memory the actions waiting for the background thread, and those it
        /// is delivering, may hold (128 MB unless set), each estimated by the encoded size of the last action and
        /// state encoded (at first, of the initial state); beyond it new actions are dropped. So a small state
        /// queues many actions and a large one few, and room opens as the background thread encodes. At most 4096
        /// actions are queued on one estimate, so a state that grows while the background thread cannot look does
        /// not overrun the bound by more than that.
        public var bufferBytes: Int
        /// Free-form metadata for the header.
        public var metadata: [String: JSONValue]
        /// A display name for an action; by default its case path through nested actions (see ``ActionName``).
        public var actionName: (@Sendable (Action) -> String)?
        /// Full states on every line, or patches with keyframes.
        public var snapshots: SnapshotPolicy
        /// The secret parts of the state and actions, replaced before anything is written (see ``Redaction``).
        public var redaction: Redaction
        /// Whether each part of a state that is unchanged since the previous state (the same bits: the same
        /// numbers, and the same copy-on-write storage of its arrays, strings and dictionaries) is written from the
        /// previous state's bytes instead of being encoded again: several times faster for a large state of which
        /// an action changes a little. Off unless set, because bits cannot show a class instance changed in place:
        /// use it for states made of value types (parts that are classes themselves are always encoded).
        public var reusesEncodingOfUnchangedParts: Bool
        /// The most bytes of lines held until the transport confirms it persisted them (8 MB unless set); beyond it
        /// the oldest are let go, and a reconnect after losing them records them as a `gap`.
        public var unconfirmedBufferBytes: Int
        /// Whether the states of a long backlog are encoded on two background threads instead of one (about 1.7x
        /// the sustained rate; the lines are the same). `nil` (the default) decides by the machine: two threads
        /// when it has at least three cores, so the app's own threads keep a core to themselves; on two cores the
        /// second encoding thread lengthened the app's slowest dispatches. Redaction and
        /// ``reusesEncodingOfUnchangedParts`` always encode on one thread.
        public var encodesStatesInParallel: Bool?

        /// Creates a configuration.
        public init(
            storeID: String, app: AppInfo, sessionID: String = UUID().uuidString.lowercased(),
            bufferCapacity: Int? = nil, bufferBytes: Int = 128 << 20, metadata: [String: JSONValue] = [:],
            actionName: (@Sendable (Action) -> String)? = nil, snapshots: SnapshotPolicy = .full,
            redaction: Redaction = Redaction(), reusesEncodingOfUnchangedParts: Bool = false,
            unconfirmedBufferBytes: Int = 8 << 20, encodesStatesInParallel: Bool? = nil
        ) {
            self.storeID = storeID
            self.app = app
            self.sessionID = sessionID
            self.bufferCapacity = bufferCapacity.map { max(1, $0) }
            self.bufferBytes = max(1, bufferBytes)
            self.metadata = metadata
            self.actionName = actionName
            self.snapshots = snapshots
            self.redaction = redaction
            self.reusesEncodingOfUnchangedParts = reusesEncodingOfUnchangedParts
            self.unconfirmedBufferBytes = max(0, unconfirmedBufferBytes)
            self.encodesStatesInParallel = encodesStatesInParallel
        }
    }

    /// What the background thread is doing, so a dispatch wakes it only when it would otherwise not look.
    private enum WorkerState {
        /// Delivering, or about to look at the queue: it sees new actions without a signal.
        case busy
        /// Waiting a moment after a batch for more actions to gather: woken early only when the queue fills up.
        case napping
        /// Waiting with nothing to do: the next action must wake it.
        case sleeping
    }

    /// How long the background thread waits after a batch before it looks again. Under a stream of dispatches the
    /// actions gather meanwhile and no dispatch pays for waking it (half a microsecond, about the cost of a small
    /// dispatch); when the queue is still empty afterwards, it sleeps until the next action wakes it.
    private static var napSeconds: Double { 0.002 }
    /// Fewer queued actions than this after a batch mean the background thread has caught up.
    private static var napBelow: Int { 1 }

    /// The memory of one queued action besides what its state and action point to.
    private static var slotBytes: Int {
        MemoryLayout<QueuedEvent>.stride + MemoryLayout<Action>.stride + MemoryLayout<State>.stride
    }

    /// The bytes of lines the background thread gathers before sending them together (sending during a batch
    /// slows the app's thread while it allocates, so not too often; the lines are held twice meanwhile).
    private static var chunkBytes: Int { 16 << 20 }
    /// The most storage of a chunk kept for the next one.
    private static var keptChunkBytes: Int { 1 << 20 }
    /// How many actions the background thread encodes between two updates of the count of pending ones.
    private static var releaseEvery: Int { 256 }
    /// How many actions the background thread encodes between two estimates of the memory of those pending (an
    /// estimate lets only ``actionsPerEstimate`` actions be queued on it, so a burst needs fresh ones).
    private static var estimateEvery: Int { 32 }
    /// How many actions may be queued on one estimate of their memory: a state that grows while the background
    /// thread does not get to encode it cannot make the queue overrun its bound by more than this.
    private static var actionsPerEstimate: Int { 4096 }
    /// A batch taken with more slots than this gives its storage back instead of keeping it for the next one.
    private static var keptBatchSlots: Int { 16384 }
    /// How many actions the queue and the batch have room for at first (about 70 KB each for a small state).
    private static var initialQueueSlots: Int { 1024 }

    /// The configuration the recorder was created with.
    public let configuration: Configuration
    private let transport: any SessionTransport
    private let initialState: State
    private let startedAt: Date
    private let startNanoseconds: UInt64
    /// The monotonic time, in nanoseconds, from which the store counts its dispatches' `uptimeNanoseconds`, when
    /// known: an action's time is then the store's, without reading the clock again (a sixth of what recording a
    /// small state cost the dispatching thread).
    private let storeClockOrigin: UInt64?
    private let encoder = CanonicalJSONEncoder()

    // Guarded by `condition`.
    private let condition = NSCondition()
    private let queue = RecorderQueue<State, Action>(capacity: initialQueueSlots)
    private var bufferFullRange: ClosedRange<Int>?
    private var baseStoreSequence: Int?
    private var lastSequence = 0
    private var endReason: EndEvent.Reason?
    private var stats = RecorderStatistics()
    private var worker = WorkerState.busy
    /// The actions queued or being delivered whose states are not released yet.
    private var pendingActions = 0
    /// The memory each pending action is estimated to hold: its slot, and the encoded size of the last action and
    /// state encoded (or of the initial state).
    private var bytesPerAction: Int
    /// The actions queued since ``bytesPerAction`` was last estimated.
    private var queuedSinceEstimate = 0

    // Used by the background thread only.
    private var needsStart = true
    /// Whether ``bytesPerAction`` was estimated from an encoded state yet.
    private var hasEstimate = false
    /// The last sequence number of the lines the transport took (counted as written; a reconnect that finds fewer
    /// persisted does not lower it, so a line sent again is not counted twice).
    private var sentThrough = 0
    /// The last sequence number already counted in ``RecorderStatistics/droppedTransportFailed``.
    private var countedLostThrough = 0
    /// The lines sent (or tried) that the transport has not confirmed.
    private var unconfirmed: UnconfirmedLines
    /// For delta snapshots: the state of the last line written, and how many lines since the last keyframe.
    private var previousState: JSONValue?
    private var sinceKeyframe = 0
    /// The state encoder's writer, and the parts of the last state encoded when
    /// ``Configuration/reusesEncodingOfUnchangedParts`` is on.
    private let stateMemo: EncodingMemo
    /// What encodes the states of a long batch on two threads; `nil` where that could change the lines (redaction,
    /// reused parts, which compare each state with the one before) or cannot pay (one processor).
    package let stateEncodingPool: StateEncodingPool<State>?

    /// Creates a recorder and starts its background thread, which writes the header at once.
    ///
    /// Prefer `Store.startRecording(_:to:)`, which reads the store's current state and registers the recorder in
    /// one step so no action slips in between.
    /// - Parameters:
    ///   - initialState: The store's state when recording starts.
    ///   - transport: Where the lines go.
    ///   - configuration: Names and bounds.
    public convenience init(initialState: State, transport: any SessionTransport, configuration: Configuration) {
        self.init(initialState: initialState, transport: transport, configuration: configuration, storeClockOrigin: nil)
    }

    /// Creates a recorder for a store that counts its dispatches' `uptimeNanoseconds` from `storeClockOrigin`
    /// (monotonic nanoseconds), or, with `nil`, one that reads the clock at each action.
    init(
        initialState: State, transport: any SessionTransport, configuration: Configuration, storeClockOrigin: UInt64?
    ) {
        self.storeClockOrigin = storeClockOrigin
        self.initialState = initialState
        self.transport = transport
        self.configuration = configuration
        self.startedAt = Date()
        self.startNanoseconds = MonotonicClock.nanoseconds()
        stateMemo = EncodingMemo(reusesUnchangedParts: configuration.reusesEncodingOfUnchangedParts)
        let encodesInParallel = configuration.redaction.statePaths.isEmpty
            && !configuration.reusesEncodingOfUnchangedParts
            && (configuration.encodesStatesInParallel ?? (ProcessInfo.processInfo.activeProcessorCount >= 3))
        stateEncodingPool = encodesInParallel ? StateEncodingPool() : nil
        unconfirmed = UnconfirmedLines(byteLimit: configuration.unconfirmedBufferBytes)
        bytesPerAction = max(Self.slotBytes, configuration.bufferBytes / 4096)
        let thread = Thread { [self] in runWorker() }
        thread.name = "SessionRecorder \(configuration.storeID)"
        thread.start()
    }

    /// What the recorder has done so far.
    public var statistics: RecorderStatistics {
        condition.withLock { stats }
    }

    /// Enqueues the action and the new state; called by the store on the dispatching thread.
    public func actionDispatched(_ action: Action, oldState: State, newState: State, context: DispatchContext) {
        let now = storeClockOrigin.map { $0 &+ context.uptimeNanoseconds } ?? MonotonicClock.nanoseconds()
        let time = Double(now > startNanoseconds ? now - startNanoseconds : 0) / 1e9
        condition.lock()
        defer { condition.unlock() }
        guard endReason == nil else { return }
        let base = baseStoreSequence ?? (context.sequence - 1)
        baseStoreSequence = base
        let sequence = context.sequence - base
        lastSequence = sequence
        stats.actionsSeen += 1
        let isFull = configuration.bufferCapacity.map { queue.count >= $0 }
            ?? ((pendingActions + 1) * bytesPerAction > configuration.bufferBytes
                || queuedSinceEstimate >= Self.actionsPerEstimate)
        if isFull {
            bufferFullRange = (bufferFullRange?.lowerBound ?? sequence)...sequence
            stats.droppedBufferFull += 1
            return
        }
        flushBufferFullGap()
        let origin: ActionEvent.Origin
        switch context.origin {
        case .app: origin = .app
        case .effect(let cause): origin = .effect(cause: cause > base ? cause - base : nil)
        }
        pendingActions += 1
        queuedSinceEstimate += 1
        queue.append(action: action, state: newState, sequence: sequence, time: time, origin: origin)
        wakeWorkerIfNeeded()
    }

    /// Signals the background thread when it sleeps, or when it naps and the queue is half full (by either of its
    /// bounds) or three quarters through the room it has (so the background thread takes it before this thread
    /// must grow it); call with the lock held after adding to the queue.
    private func wakeWorkerIfNeeded() {
        switch worker {
        case .busy:
            return
        case .napping:
            let halfFull = configuration.bufferCapacity.map { queue.count * 2 >= $0 }
                ?? (pendingActions * bytesPerAction * 2 >= configuration.bufferBytes
                    || queuedSinceEstimate * 2 >= Self.actionsPerEstimate)
            guard halfFull || queue.actionCount * 4 >= queue.capacity * 3 else { return }
        case .sleeping:
            break
        }
        worker = .busy
        condition.signal()
    }

    /// Flushes every queued action, writes the `end` line and closes the transport.
    ///
    /// Waits for the background thread at most `timeout`; later calls do nothing and return the statistics.
    /// ``RecorderStatistics/isFinished`` in the result tells whether the flush ended within the timeout.
    /// - Parameters:
    ///   - reason: Why the session ends.
    ///   - timeout: How long to wait for the flush.
    /// - Returns: The final statistics.
    @discardableResult
    public func finish(reason: EndEvent.Reason = .finished, timeout: Duration = .seconds(5)) -> RecorderStatistics {
        condition.lock()
        defer { condition.unlock() }
        if endReason == nil {
            endReason = reason
            flushBufferFullGap()
            condition.broadcast()
        }
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        let deadline = Date(timeIntervalSinceNow: seconds)
        while !stats.isFinished {
            if !condition.wait(until: deadline) { break }
        }
        return stats
    }

    /// Moves a pending buffer-full range into the queue as a gap; call with the lock held.
    private func flushBufferFullGap() {
        guard let range = bufferFullRange else { return }
        bufferFullRange = nil
        queue.append(gap: GapEvent(firstSequence: range.lowerBound, lastSequence: range.upperBound, reason: .bufferFull))
    }

    // MARK: - Background thread

    private func runWorker() {
        var chunk = Chunk()
        // Encoding yields to the app's threads when both want the CPU. Where the priority cannot be lowered the
        // recorder still works, only without that courtesy, so a failure here is not worth a report.
        try? Syscall.lowerCurrentThreadPriority()
        _ = send([], held: false, newActions: 0)
        // The queue and this batch swap buffers, so taking the queue neither allocates under the lock nor leaves
        // the dispatching thread appending into fresh, untouched memory; the batch is emptied after the lock.
        let batch = RecorderQueue<State, Action>(capacity: Self.initialQueueSlots)
        var delivered = false
        while true {
            condition.lock()
            // Caught up after a batch (few actions gathered meanwhile): more may be streaming in, so nap before
            // looking again rather than take them a few at a time, each time through the lock the app takes.
            if delivered && queue.count < Self.napBelow && endReason == nil {
                worker = .napping
                _ = condition.wait(until: Date(timeIntervalSinceNow: Self.napSeconds))
            }
            while queue.isEmpty && endReason == nil {
                worker = .sleeping
                condition.wait()
            }
            worker = .busy
            queue.swapContents(with: batch)
            let ending = endReason
            condition.unlock()

            deliver(batch, in: &chunk)
            delivered = !batch.isEmpty
            if let ending, batch.isEmpty {
                writeEnd(ending)
                return
            }
            // The emptied batch becomes the queue the app's thread appends to next: room for twice this batch,
            // made here, spares that thread growing it and faulting its pages in.
            let taken = batch.actionCount
            batch.removeAll()
            batch.makeRoom(forActions: min(Self.keptBatchSlots, 2 * taken), givingBackAbove: Self.keptBatchSlots)
        }
    }

    /// The lines of part of a batch, gathered to be sent together, and what delivering them did.
    private struct Chunk {
        var lines: [UInt8] = []
        var written = 0
        var encodingFailures = 0
        var lastEncodingError: String?
        /// The encoded size of the last action and its full state.
        var lastEncodedBytes: Int?
    }

    /// Encodes the batch's actions and sends their lines a chunk at a time, releasing the states of the encoded
    /// actions a few hundred at a time.
    /// - Parameter chunk: Empty; its storage is reused from batch to batch.
    private func deliver(_ batch: RecorderQueue<State, Action>, in chunk: inout Chunk) {
        // After a failure the lines before this batch may be lost: start it with a full state.
        if needsStart { previousState = nil }
        // The index among the batch's actions of the next `.action` event.
        var next = 0
        var window = StateEncodingWindow<State>()
        for index in 0..<batch.count {
            var line: [UInt8] = []
            let entry: UnconfirmedLines.Entry
            switch batch.event(at: index) {
            case .action(let sequence, let time, let origin):
                let (action, state) = (batch.action(at: next), batch.state(at: next))
                let encodedState = stateEncodingPool.flatMap { pool in
                    window.encodedState(at: next, of: batch.actionCount, with: pool) { batch.state(at: $0) }
                }
                next += 1
                do {
                    let name = configuration.actionName?(action) ?? ActionName.of(action)
                    let encoded = try encodedAction(action)
                    let (snapshot, fullState) = try self.snapshot(of: state, encoded: encodedState?.get())
                    ActionLineWriter.append(
                        sequence: sequence, time: time, name: name, action: encoded, origin: origin,
                        snapshot: snapshot, to: &line)
                    var content = UnconfirmedLines.Entry.Content.state
                    if case .patch = snapshot {
                        var fullStateLine: [UInt8] = []
                        ActionLineWriter.append(
                            sequence: sequence, time: time, name: name, action: encoded, origin: origin,
                            snapshot: .state(fullState), to: &fullStateLine)
                        content = .patch(fullStateLine: fullStateLine)
                    }
                    entry = UnconfirmedLines.Entry(sequences: sequence...sequence, bytes: line, content: content)
                    chunk.written += 1
                    chunk.lastEncodedBytes = encoded.count + fullState.count
                } catch {
                    chunk.encodingFailures += 1
                    chunk.lastEncodingError = "\(error)"
                    previousState = nil
                    let gap = GapEvent(
                        firstSequence: sequence, lastSequence: sequence, reason: .encodingFailed,
                        message: "\(error)")
                    line = SessionEvent.gap(gap).line
                    entry = UnconfirmedLines.Entry(sequences: sequence...sequence, bytes: line, content: .gap(gap))
                }
            case .gap(let gap):
                previousState = nil
                line = SessionEvent.gap(gap).line
                entry = UnconfirmedLines.Entry(
                    sequences: gap.firstSequence...gap.lastSequence, bytes: line, content: .gap(gap))
            }
            unconfirmed.append(entry)
            chunk.lines += line
            let unreleased = next - batch.releasedCount
            if chunk.lines.count >= Self.chunkBytes {
                send(&chunk, releasing: batch, before: next)
            } else if unreleased >= Self.releaseEvery {
                release(batch, before: next, estimatingBy: &chunk)
            } else if chunk.lastEncodedBytes != nil && unreleased % Self.estimateEvery == 0 {
                release(batch, before: batch.releasedCount, estimatingBy: &chunk)
            }
        }
        send(&chunk, releasing: batch, before: next)
    }

    /// Sends a chunk's lines (starting the transport if needed, even with none), then releases the batch's actions
    /// before `end` (see ``release(_:before:estimatingBy:)``).
    private func send(_ chunk: inout Chunk, releasing batch: RecorderQueue<State, Action>, before end: Int) {
        let delivered = send(chunk.lines, held: true, newActions: chunk.written)
        condition.withLock {
            stats.droppedEncodingFailed += chunk.encodingFailures
            if let lastEncodingError = chunk.lastEncodingError { stats.lastError = lastEncodingError }
        }
        release(batch, before: end, estimatingBy: &chunk)
        if !delivered { previousState = nil }
        // The next chunk reuses the storage (allocating it afresh each time costs the app's thread too), unless a
        // burst made it large.
        chunk.lines.removeAll(keepingCapacity: chunk.lines.count <= Self.keptChunkBytes)
        chunk.written = 0
        chunk.encodingFailures = 0
        chunk.lastEncodingError = nil
    }

    /// Releases the batch's actions and states before `end` (a few hundred at a time: the app's thread allocates
    /// while this one frees, so a few larger releases disturb it less than one per action) and counts them as no
    /// longer pending; estimates the memory of those still pending by the chunk's last encoded size, if any.
    private func release(_ batch: RecorderQueue<State, Action>, before end: Int, estimatingBy chunk: inout Chunk) {
        let released = max(0, end - batch.releasedCount)
        batch.release(before: end)
        let encoded = chunk.lastEncodedBytes
        chunk.lastEncodedBytes = nil
        condition.withLock {
            pendingActions -= released
            if let encoded { estimateBytesPerAction(encoded) }
        }
    }

    /// Takes `encodedBytes`, the encoded size of an action and its state, as what each pending action holds besides
    /// its slot; call with the lock held.
    private func estimateBytesPerAction(_ encodedBytes: Int) {
        hasEstimate = true
        bytesPerAction = Self.slotBytes + encodedBytes
        queuedSinceEstimate = 0
    }

    /// The state as a full snapshot, or as a patch against the previous line's state under delta snapshots.
    /// - Parameter encoded: The state's bytes when they were encoded ahead (never with redaction).
    /// - Returns: The snapshot for the line, and the full state's bytes.
    private func snapshot(of state: State, encoded: [UInt8]?) throws -> (ActionLineWriter.Snapshot, [UInt8]) {
        // With secrets, the state is built as a tree to redact it; delta snapshots reuse that tree.
        let redaction = configuration.redaction
        let redacted = redaction.statePaths.isEmpty ? nil : redaction.redactingState(try encoder.encode(state))
        let bytes = try redacted?.canonicalBytes() ?? encoded
            ?? encoder.encodeToBytes(state, reusing: stateMemo)
        guard case .delta(let interval) = configuration.snapshots else { return (.state(bytes), bytes) }
        let current = try redacted ?? JSONValue(parsing: bytes)
        defer { previousState = current }
        if let previous = previousState, sinceKeyframe + 1 < max(1, interval) {
            let patch = JSONPatch(from: previous, to: current).jsonValue.canonicalBytes()
            if patch.count < bytes.count {
                sinceKeyframe += 1
                return (.patch(patch), bytes)
            }
        }
        sinceKeyframe = 0
        return (.state(bytes), bytes)
    }

    /// The action's canonical bytes, its secrets replaced.
    private func encodedAction(_ action: Action) throws -> [UInt8] {
        let redaction = configuration.redaction
        guard !redaction.actionPaths.isEmpty else { return try encoder.encodeToBytes(action) }
        return redaction.redactingAction(try encoder.encode(action)).canonicalBytes()
    }

    /// Starts the transport if needed, then sends `lines`, which the unconfirmed buffer already holds when `held`.
    ///
    /// After a (re)start, it sends instead every held line after the receiver's last persisted sequence number,
    /// after a `gap` for the numbers no longer held, then `lines` if not held.
    /// - Parameter newActions: The action lines in `lines`, counted as written once sent.
    private func send(_ lines: [UInt8], held: Bool, newActions: Int) -> Bool {
        do {
            var payload = lines
            var written = newActions
            if needsStart {
                let header = try headerLine()
                if !hasEstimate {
                    // Until an action is encoded, the initial state tells how much memory one holds.
                    condition.withLock { estimateBytesPerAction(header.count) }
                }
                let persisted = try transport.start(header: header)
                needsStart = false
                let resend = unconfirmed.resend(after: persisted ?? sentThrough, newAfter: sentThrough)
                payload = []
                if let missing = resend.missing {
                    let gap = GapEvent(
                        firstSequence: missing.lowerBound, lastSequence: missing.upperBound, reason: .transportFailed,
                        message: lastError())
                    SessionEvent.gap(gap).appendLine(to: &payload)
                    countLost(missing)
                }
                payload += resend.lines
                written = resend.newActions
                if !held { payload += lines }
            }
            guard !payload.isEmpty else { return true }
            try transport.write(payload)
            sentThrough = max(sentThrough, unconfirmed.lastSequence)
            condition.withLock { stats.actionsWritten += written }
            unconfirmed.confirm(through: transport.persistedSequence() ?? unconfirmed.lastSequence)
            return true
        } catch {
            needsStart = true
            condition.withLock { stats.lastError = "\(error)" }
            if transport.persistedSequence() == nil {
                // Nothing will confirm these lines: they are lost, and the next start records them as a gap.
                unconfirmed.discard()
                if sentThrough < unconfirmed.lastSequence { countLost((sentThrough + 1)...unconfirmed.lastSequence) }
            }
            return false
        }
    }

    /// Counts the sequence numbers of `lost` not counted before as dropped, and no longer as written when they were.
    private func countLost(_ lost: ClosedRange<Int>) {
        guard lost.upperBound > countedLostThrough else { return }
        let first = max(lost.lowerBound, countedLostThrough + 1)
        let wereWritten = max(0, min(lost.upperBound, sentThrough) - first + 1)
        countedLostThrough = lost.upperBound
        condition.withLock {
            stats.droppedTransportFailed += lost.upperBound - first + 1
            stats.actionsWritten -= wereWritten
        }
    }

    private func lastError() -> String? { condition.withLock { stats.lastError } }

    private func headerLine() throws -> [UInt8] {
        let header = SessionHeader(
            sessionID: configuration.sessionID, storeID: configuration.storeID, app: configuration.app,
            startedAt: Self.iso8601(startedAt), host: HostInfo.hostName, pid: HostInfo.processID,
            initialState: configuration.redaction.redactingState(try encoder.encode(initialState)),
            metadata: configuration.metadata, redaction: configuration.redaction)
        return SessionEvent.header(header).line
    }

    private func writeEnd(_ reason: EndEvent.Reason) {
        stateEncodingPool?.stop()
        let time = Double(MonotonicClock.nanoseconds() &- startNanoseconds) / 1e9
        let (seen, dropped) = condition.withLock { (stats.actionsSeen, stats.dropped) }
        let end = EndEvent(reason: reason, actions: seen, dropped: dropped, time: time)
        if sendEnd(SessionEvent.end(end).line) {
            do {
                try transport.close()
            } catch {
                condition.withLock { stats.lastError = "\(error)" }
            }
        }
        condition.withLock {
            stats.isFinished = true
            condition.broadcast()
        }
    }

    /// Sends the `end` line. While the transport holds lines it has not confirmed, a failure is retried for up to
    /// two seconds, so a receiver that restarts just then still gets them.
    private func sendEnd(_ line: [UInt8]) -> Bool {
        let deadline = MonotonicClock.nanoseconds() + 2_000_000_000
        while true {
            if send(line, held: false, newActions: 0) { return true }
            guard transport.persistedSequence() != nil, !unconfirmed.held.isEmpty,
                MonotonicClock.nanoseconds() < deadline
            else { return false }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    private static func iso8601(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}
