import Foundation
import StoreKitSystem

/// The background side of a ``SessionRecorder``: the thread that takes the actions the app's threads posted to the
/// ``RecorderMailbox`` a batch at a time (and the effect lines posted between them), encodes them into lines (``SessionLineEncoder``), sends the lines through
/// the transport (``SessionLineSender``), and writes the `end` line once the recorder is finishing.
///
/// The worker owns everything it holds but the mailbox: it is created by the recorder before its thread starts and
/// from then on is touched only by that thread (the encoding pool's second thread takes states through the pool's
/// own lock), so none of its state is behind a lock. It reaches the app's side only through the mailbox: to take a
/// batch, to hand the states it encoded over to be released, and to count what happened in the statistics.
final class RecorderWorker<State: Encodable & Sendable, Action: Encodable & Sendable>: @unchecked Sendable {
    /// How many actions are encoded between two hand-overs of their states to be released and counts of pending ones.
    private static var releaseEvery: Int { 256 }
    /// How many actions are encoded between two estimates of the memory of those pending (an estimate lets only
    /// ``RecorderMemoryBudget/actionsPerEstimate`` actions be queued on it, so a burst needs fresh ones).
    private static var estimateEvery: Int { 32 }
    /// A batch taken with more slots than this gives its storage back instead of keeping it for the next one.
    private static var keptBatchSlots: Int { 16384 }
    /// How many events are delivered between two looks at whether the time to deliver them ran out.
    private static var deadlineCheckEvery: Int { 8 }
    /// The most actions one `gap` line keeps, and about the most bytes of encoded actions: a long run of kept
    /// actions is written as several gaps in a row, each line far below the longest a reader takes (16 MiB).
    private static var keptActionsPerLine: Int { 512 }
    private static var keptBytesPerLine: Int { 1 << 20 }

    private let mailbox: RecorderMailbox<State, Action>
    /// The bytes of lines gathered before sending them together (sending during a batch slows the app's thread
    /// while it allocates, so not too often; the lines are held twice meanwhile): the chunk's share of the memory
    /// limit.
    private let chunkBytes: Int
    private let lines: SessionLineEncoder<State, Action>
    private let sender: SessionLineSender<State, Action>
    /// The monotonic time, in nanoseconds, at which recording started.
    private let startNanoseconds: UInt64
    /// What encodes the states of a long batch on two threads; `nil` where that could change the lines (redaction,
    /// reused parts, which compare each state with the one before) or cannot pay (fewer than three processors,
    /// unless the configuration says otherwise).
    let stateEncodingPool: StateEncodingPool<State>?
    /// The monotonic time, in nanoseconds, by which what is queued must be delivered, once the recorder is
    /// finishing (see ``RecorderMailbox/deliveryDeadline``).
    private var deliveryDeadline: UInt64?
    /// The priority this thread had before it lowered its own, until it goes back to it (see
    /// ``returnToTheAppsPriority()``).
    private var appPriority: ThreadPriority?

    /// Creates the worker of a recorder; ``run()`` it on a thread of its own.
    init(
        initialState: State, transport: any SessionTransport,
        configuration: SessionRecorder<State, Action>.Configuration, mailbox: RecorderMailbox<State, Action>,
        memoryShares: RecorderMemoryShares, startedAt: Date, startNanoseconds: UInt64, replayableEffects: [String]
    ) {
        self.mailbox = mailbox
        chunkBytes = memoryShares.chunkBytes
        self.startNanoseconds = startNanoseconds
        let lines = SessionLineEncoder(
            configuration: configuration, initialState: initialState, startedAt: startedAt,
            replayableEffects: replayableEffects)
        self.lines = lines
        sender = SessionLineSender(
            transport: transport, unconfirmedBytes: memoryShares.unconfirmedBytes, mailbox: mailbox,
            header: lines.headerLine)
        let encodesInParallel = configuration.redaction.statePaths.isEmpty
            && !configuration.reusesEncodingOfUnchangedParts
            && (configuration.encodesStatesInParallel ?? (ProcessInfo.processInfo.activeProcessorCount >= 3))
        stateEncodingPool = encodesInParallel ? StateEncodingPool() : nil
    }

    /// Starts the transport, then delivers batch after batch until the recorder finishes.
    func run() {
        var chunk = Chunk()
        // Encoding yields to the app's threads when both want the CPU. Where the priority cannot be lowered the
        // recorder still works, only without that courtesy, so a failure here is not worth a report.
        appPriority = try? Syscall.lowerCurrentThreadPriority()
        _ = sender.send([], held: false, newActions: 0)
        // The queue and this batch swap buffers, so taking the queue neither allocates under the lock nor leaves
        // the dispatching thread appending into fresh, untouched memory; the batch is emptied after the lock.
        let batch = RecorderQueue<State, Action>(capacity: RecorderQueue<State, Action>.initialCapacity)
        var delivered = false
        while true {
            // Caught up after a batch: more may be streaming in, so nap before looking again rather than take them
            // a few at a time, each time through the lock the app takes.
            // Lines waiting for a daemon that went away are sent once it is back, even if no action comes.
            let (ending, effectNames) = mailbox.takeBatch(
                into: batch, nappingFirst: delivered, wakingAfter: sender.nextRetryDelay)
            if ending != nil { returnToTheAppsPriority() }
            if let undelivered = deliver(batch, effectNames: effectNames, in: &chunk) {
                endTimedOut(batch, from: undelivered, in: &chunk)
                return
            }
            mailbox.releaseKeptActions(batch.keptCount)
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

    /// Encodes the batch's events and sends their lines a chunk at a time, releasing the states of the encoded
    /// actions a few hundred at a time, until the batch is delivered or the time ``SessionRecorder/finish(reason:timeout:)``
    /// left for delivering runs out.
    /// - Parameters:
    ///   - effectNames: The names the batch's actions number the effects that sent them by, from 1.
    ///   - chunk: Empty; its storage is reused from batch to batch.
    /// - Returns: `nil` once the whole batch is delivered; else the index of its first event left undelivered
    ///   because the time ran out, with the lines before it still in `chunk`.
    private func deliver(
        _ batch: RecorderQueue<State, Action>, effectNames: [String], in chunk: inout Chunk
    ) -> Int? {
        // After a failure the lines before this batch may be lost: start it with a full state.
        if sender.needsStart { lines.forgetPreviousState() }
        // The index among the batch's actions of the next `.action` event, and of its kept ones of the next
        // `.keptAction` event.
        var next = 0
        var nextKept = 0
        var kept = KeptRun()
        var window = StateEncodingWindow<State>()
        for index in 0..<batch.count {
            if index % Self.deadlineCheckEvery == 0 && deliveryTimeRanOut() {
                holdKept(&kept, in: &chunk)
                return index
            }
            let event = batch.event(at: index)
            if case .keptAction(let sequence, let time, let origin, let effect) = event {
                if let last = kept.actions.last,
                    last.sequence + 1 != sequence || kept.actions.count == Self.keptActionsPerLine
                        || kept.bytes >= Self.keptBytesPerLine
                {
                    holdKept(&kept, in: &chunk)
                }
                do {
                    let (event, bytes) = try lines.keptAction(
                        sequence: sequence, time: time, origin: origin,
                        effect: effect == 0 ? nil : effectNames[Int(effect) - 1], action: batch.keptAction(at: nextKept))
                    kept.actions.append(event)
                    kept.bytes += bytes
                } catch {
                    holdKept(&kept, in: &chunk)
                    let entry = encodingFailure(of: sequence, error, in: &chunk)
                    sender.hold(entry)
                    chunk.lines += entry.bytes
                }
                nextKept += 1
                if chunk.lines.count >= chunkBytes { send(&chunk, releasing: batch, before: next) }
                continue
            }
            holdKept(&kept, in: &chunk)
            let entry: UnconfirmedLines.Entry
            switch event {
            case .action(let sequence, let time, let origin, let effect):
                let encodedState = stateEncodingPool.flatMap { pool in
                    window.encodedState(at: next, of: batch.actionCount, with: pool) { batch.state(at: $0) }
                }
                do {
                    let line = try lines.actionLine(
                        sequence: sequence, time: time, origin: origin,
                        effect: effect == 0 ? nil : effectNames[Int(effect) - 1], action: batch.action(at: next),
                        state: batch.state(at: next), encodedState: encodedState)
                    entry = line.entry
                    chunk.written += 1
                    chunk.lastEncodedBytes = line.encodedBytes
                } catch {
                    entry = encodingFailure(of: sequence, error, in: &chunk)
                }
                next += 1
            case .keptAction:
                continue  // Taken above.
            case .gap(let gap):
                entry = lines.gapLine(gap)
            case .call(let call):
                guard let line = lines.callLine(call) else {
                    chunk.effectLinesLeftOut += 1
                    continue
                }
                entry = line
            case .effectEnd(let end):
                guard let line = lines.effectEndLine(end) else {
                    chunk.effectLinesLeftOut += 1
                    continue
                }
                entry = line
            case .note(let note):
                entry = lines.noteLine(note)
                chunk.noteBytes += note.estimatedBytes
            }
            sender.hold(entry)
            chunk.lines += entry.bytes
            let unreleased = next - batch.releasedCount
            if chunk.lines.count >= chunkBytes {
                send(&chunk, releasing: batch, before: next)
            } else if unreleased >= Self.releaseEvery {
                retire(batch, before: next, estimatingBy: &chunk)
            } else if chunk.lastEncodedBytes != nil && unreleased % Self.estimateEvery == 0 {
                retire(batch, before: batch.releasedCount, estimatingBy: &chunk)
            }
        }
        holdKept(&kept, in: &chunk)
        send(&chunk, releasing: batch, before: next)
        return nil
    }

    /// Holds the `gap` line that keeps the actions of `kept`, if any, adds it to the chunk, and empties `kept`.
    private func holdKept(_ kept: inout KeptRun, in chunk: inout Chunk) {
        guard !kept.actions.isEmpty else { return }
        let entry = lines.keptActionsLine(kept.actions)
        sender.hold(entry)
        chunk.lines += entry.bytes
        chunk.written += kept.actions.count
        kept.actions.removeAll(keepingCapacity: true)
        kept.bytes = 0
    }

    /// The `encodingFailed` gap of the action numbered `sequence`, which `error` stopped, counted in the chunk.
    private func encodingFailure(of sequence: Int, _ error: any Error, in chunk: inout Chunk) -> UnconfirmedLines.Entry {
        chunk.encodingFailures += 1
        chunk.lastEncodingError = "\(error)"
        return lines.gapLine(
            GapEvent(firstSequence: sequence, lastSequence: sequence, reason: .encodingFailed, message: "\(error)"))
    }

    /// Whether ``SessionRecorder/finish(reason:timeout:)`` was called and the time it left for delivering has run
    /// out (asked of the mailbox until the recorder is finishing, then of the deadline it gave).
    private func deliveryTimeRanOut() -> Bool {
        if deliveryDeadline == nil { deliveryDeadline = mailbox.deliveryDeadline }
        guard let deliveryDeadline else { return false }
        returnToTheAppsPriority()
        return MonotonicClock.nanoseconds() >= deliveryDeadline
    }

    /// Once the recorder is finishing, gives this thread the priority it had before it lowered its own: the app is
    /// waiting for it now, and on a machine busy with other work the lower priority could leave it too little of
    /// the CPU to deliver in time. Where the system does not allow it (Linux without `CAP_SYS_NICE` or
    /// `RLIMIT_NICE`), the thread keeps its lower priority.
    private func returnToTheAppsPriority() {
        guard let priority = appPriority else { return }
        appPriority = nil
        try? Syscall.setCurrentThreadPriority(priority)
        stateEncodingPool?.returnToTheAppsPriority()
    }

    /// Ends a session whose time ran out: writes the lines already encoded, then a `gap` of reason
    /// ``GapEvent/Reason/timedOut`` for every action left in `batch` from the event `index` and in the mailbox's
    /// queue (keeping the gaps queued there), and an `end` of reason ``EndEvent/Reason/timedOut``; effect lines
    /// left are counted as dropped.
    private func endTimedOut(_ batch: RecorderQueue<State, Action>, from index: Int, in chunk: inout Chunk) {
        var left = UndeliveredEvents()
        left.add(batch, from: index)
        batch.removeAll()
        // The recorder is finishing, so this returns at once with whatever was queued after the batch.
        _ = mailbox.takeBatch(into: batch, nappingFirst: false)
        left.add(batch, from: 0)
        batch.removeAll()
        for gap in left.gaps {
            let entry = lines.gapLine(gap)
            sender.hold(entry)
            chunk.lines += entry.bytes
        }
        mailbox.updateStatistics { statistics in
            statistics.droppedTimedOut += left.actions
            statistics.effectLinesDropped += left.effectLines
            statistics.notesDropped += left.notes
        }
        send(&chunk, releasing: batch, before: 0)
        writeEnd(.timedOut)
    }

    /// Sends a chunk's lines (starting the transport if needed, even with none), then hands the batch's actions
    /// before `end` over to be released (see ``retire(_:before:estimatingBy:)``).
    private func send(_ chunk: inout Chunk, releasing batch: RecorderQueue<State, Action>, before end: Int) {
        let delivered = sender.send(chunk.lines, held: true, newActions: chunk.written)
        lines.forgetRuns(sender.takeRunsWithLostLines())
        mailbox.updateStatistics { statistics in
            statistics.droppedEncodingFailed += chunk.encodingFailures
            statistics.effectLinesDropped += chunk.effectLinesLeftOut
            if let lastEncodingError = chunk.lastEncodingError { statistics.lastError = lastEncodingError }
        }
        retire(batch, before: end, estimatingBy: &chunk)
        mailbox.releaseNotes(bytes: chunk.noteBytes)
        if !delivered { lines.forgetPreviousState() }
        // The next chunk reuses the storage, within the chunk's share of the memory limit (which counts it twice):
        // allocating it afresh grows it by doubling, copying the lines again, and faults its pages in again, all
        // on the background thread and, through the allocator's lock, the app's. Storage a chunk of very large
        // lines grew past that goes back.
        chunk.lines.removeAll(keepingCapacity: chunk.lines.capacity <= 2 * chunkBytes)
        chunk.written = 0
        chunk.encodingFailures = 0
        chunk.effectLinesLeftOut = 0
        chunk.noteBytes = 0
        chunk.lastEncodingError = nil
    }

    /// Hands the batch's encoded actions and states before `end` to the app's posts to release (see
    /// ``RecorderMailbox/retire(_:before:estimatingBy:)``), a few hundred at a time so the lock is taken seldom;
    /// estimates the memory of those still pending by the chunk's last encoded size, if any.
    private func retire(_ batch: RecorderQueue<State, Action>, before end: Int, estimatingBy chunk: inout Chunk) {
        mailbox.retire(batch, before: end, estimatingBy: chunk.lastEncodedBytes)
        chunk.lastEncodedBytes = nil
    }

    /// Stops the encoding pool, sends the `end` line with the final counts, closes the transport, and marks the
    /// recorder finished.
    private func writeEnd(_ reason: EndEvent.Reason) {
        stateEncodingPool?.stop()
        let time = Double(MonotonicClock.nanoseconds() &- startNanoseconds) / 1e9
        let statistics = mailbox.statistics
        let end = EndEvent(reason: reason, actions: statistics.actionsSeen, dropped: statistics.dropped, time: time)
        sender.sendEnd(SessionEvent.end(end).line)
        mailbox.markFinished()
    }
}

/// Actions kept without their states, in a row, not yet written in a `gap` line, and the bytes of their encoded
/// actions.
private struct KeptRun {
    var actions: [ActionEvent] = []
    var bytes = 0
}

/// The lines of part of a batch, gathered to be sent together, and what delivering them did.
private struct Chunk {
    var lines: [UInt8] = []
    var written = 0
    var encodingFailures = 0
    /// Effect lines left out because their run lost a line with the transport.
    var effectLinesLeftOut = 0
    /// The estimated memory of the notes encoded, released once the chunk is sent.
    var noteBytes = 0
    var lastEncodingError: String?
    /// The encoded size of the last action and its full state.
    var lastEncodedBytes: Int?
}
