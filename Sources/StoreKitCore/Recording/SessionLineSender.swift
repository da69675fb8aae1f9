import Foundation
import StoreKitSystem

/// Sends a recorder's lines through its ``SessionTransport``: starts it with the header (again after a failure),
/// holds the lines it has not confirmed as persisted (``UnconfirmedLines``) and, after a restart, sends them again
/// from the receiver's last persisted sequence number, recording what it no longer holds as a `gap`.
///
/// Used by one ``RecorderWorker`` on its thread; it counts what was written, lost, and the last error in the
/// statistics of the recorder's ``RecorderMailbox``.
final class SessionLineSender<State, Action> {
    private let transport: any SessionTransport
    private let mailbox: RecorderMailbox<State, Action>
    /// Makes the header line, sent at each (re)start.
    private let makeHeader: () throws -> [UInt8]
    /// Whether the transport must be (re)started before the next lines: at first, and after a failure.
    private(set) var needsStart = true
    /// How long until the transport's next (re)start is worth trying, after a failure.
    private var retryDelay = 0.01
    /// The last sequence number of the lines the transport took (counted as written; a reconnect that finds fewer
    /// persisted does not lower it, so a line sent again is not counted twice).
    private var sentThrough = 0
    /// The last sequence number already counted in ``RecorderStatistics/droppedTransportFailed``.
    private var countedLostThrough = 0
    /// The numbers of the `gap` lines held that the receiver has not confirmed: their actions are counted as dropped
    /// already (a full queue's, an encoding's failure), so losing these lines loses no action.
    private var heldGapNumbers: [ClosedRange<Int>] = []
    /// The numbers of the held `gap` lines that keep their actions, the recorder's and those the journal made of
    /// action lines: counted in ``RecorderStatistics/actionsKeptWithoutStates``, so losing these lines takes them
    /// out of that count.
    private var heldKeptNumbers: [ClosedRange<Int>] = []
    /// The actions kept without their states held since the statistics last counted them.
    private var keptNotCounted = 0
    /// The lines sent (or tried) that the transport has not confirmed.
    private var unconfirmed: UnconfirmedLines
    /// How many effect lines were held, and how many of those are counted as written or lost: the rest are held
    /// and not yet taken by a write.
    private var heldEffectLines = 0
    private var countedEffectLines = 0
    /// The runs (cause, effect) that lost an effect line with the transport since the encoder last took them.
    private var runsWithLostLines: [(cause: Int, effect: String)] = []
    /// The journal's unsent actions as last put in ``RecorderStatistics/actionsJournaled``.
    private var reportedJournaled = 0
    /// The resend under way since the last (re)start, until every line held is sent.
    private var resendWalk: ResendWalk?
    /// The bytes of the resend's part being sent: storage kept from part to part while the resend lasts.
    private var resendBytes: [UInt8] = []

    /// Creates a sender that holds at most `unconfirmedBytes` of unconfirmed lines in memory, and those beyond in a
    /// journal when the transport has ``UnixSocketTransport/Journal`` settings.
    init(
        transport: any SessionTransport, unconfirmedBytes: Int, mailbox: RecorderMailbox<State, Action>,
        header: @escaping () throws -> [UInt8]
    ) {
        self.transport = transport
        self.mailbox = mailbox
        makeHeader = header
        let socket = transport as? UnixSocketTransport
        // What waits in the socket is held here too until the daemon confirms it (the hold lets its oldest lines go
        // first). A quarter of the hold, which Linux doubles for its bookkeeping: with half, a burst kept the hold
        // full and took the recorder past its memory limit (docs/performance.md).
        socket?.sendBufferBytes = min(UnixSocketTransport.largestSendBuffer, unconfirmedBytes / 4)
        let journal = socket.flatMap { socket in
            socket.journal.map { SessionJournal(settings: $0, socketPath: socket.path, header: header) }
        }
        unconfirmed = UnconfirmedLines(byteLimit: unconfirmedBytes, journal: journal)
    }

    /// How long the worker may wait for actions before going on: at once while a resend is under way, and, when it
    /// holds lines the receiver has not confirmed and the transport needs a restart, until that is worth trying;
    /// `nil` when it need not go on without actions.
    var nextRetryDelay: Double? {
        if resendWalk != nil { return 0 }
        guard needsStart, !unconfirmed.isEmpty, transport.persistedSequence() != nil else { return nil }
        return retryDelay
    }

    /// Holds a line until the transport confirms it; send its bytes with `held: true`.
    func hold(_ entry: UnconfirmedLines.Entry) {
        switch entry.content {
        case .effect: heldEffectLines += 1
        case .gap: heldGapNumbers.append(entry.sequences)
        case .keptActions:
            heldKeptNumbers.append(entry.sequences)
            keptNotCounted += entry.sequences.count
        case .state, .patch, .note: break
        }
        unconfirmed.append(entry)
    }

    /// The runs that lost an effect line with the transport since the last call: their later lines must not be
    /// written, or the session would hold a run that skips a call.
    func takeRunsWithLostLines() -> [(cause: Int, effect: String)] {
        defer { runsWithLostLines = [] }
        return runsWithLostLines
    }

    /// Starts the transport if needed, then sends `lines`, which are held already when `held`.
    ///
    /// After a (re)start, it sends instead every held line after the receiver's last persisted sequence number,
    /// after a `gap` for the numbers no longer held, then `lines` if not held. That resend goes a part at a time,
    /// while the lines are held at least twice as many bytes as `lines` a call (so that it catches up) and more
    /// until the app's queue is half full, letting the worker take the app's actions in between; lines not held
    /// wait until it is over.
    /// - Parameter newActions: The action lines in `lines`, counted as written once sent.
    /// - Returns: Whether the transport took the lines, or holds them for the resend under way.
    func send(_ lines: [UInt8], held: Bool, newActions: Int) -> Bool {
        defer { reportCounts() }
        do {
            if needsStart {
                let header = try makeHeader()
                // Until an action is encoded, the initial state tells how much memory one holds.
                mailbox.estimateUnlessEstimated(encodedBytes: header.count)
                let persisted = try transport.start(header: header)
                needsStart = false
                resendWalk = ResendWalk(
                    after: persisted ?? sentThrough,
                    skippingEffectLines: persisted == nil ? 0 : transport.effectLinesHeldAfterStart(),
                    newAfter: sentThrough, gapMessage: unconfirmed.journal?.problem ?? mailbox.statistics.lastError)
            }
            if resendWalk != nil {
                // Twice what came in, so that it catches up, then more while the app's queue has room.
                var budget = max(ResendCursor.chunkBytes, 2 * lines.count)
                repeat {
                    try resendPart(budget: budget)
                    budget = ResendCursor.chunkBytes
                } while resendWalk != nil && (!held || !mailbox.isHalfFull)
                // Held lines are the resend's to send; lines not held wait until it is over, as it now is.
                if held { return true }
            }
            guard !lines.isEmpty else { return true }
            try transport.write(lines)
            wrote(newActions: newActions)
            return true
        } catch {
            needsStart = true
            resendWalk = nil
            if case UnixSocketTransport.Failure.backingOff(let seconds) = error {
                retryDelay = seconds
            } else {
                retryDelay = 0.01
            }
            mailbox.updateStatistics { $0.lastError = "\(error)" }
            if transport.persistedSequence() == nil {
                // Nothing will confirm these lines: they are lost, and the next start records them as a gap.
                runsWithLostLines += unconfirmed.discard()
                if sentThrough < unconfirmed.lastSequence { countLost((sentThrough + 1)...unconfirmed.lastSequence) }
                let lostEffectLines = takeUncountedEffectLines()
                if lostEffectLines > 0 { mailbox.updateStatistics { $0.effectLinesDropped += lostEffectLines } }
            } else {
                // The receiver is away: what it has not confirmed goes to disk, where it outlives the app.
                unconfirmed.spillAll()
                if let problem = unconfirmed.journal?.refusal { mailbox.updateStatistics { $0.lastError = problem } }
            }
            return false
        }
    }

    /// Sends the next part of the resend under way; once it is over, counts what it sent and lost and holds new
    /// lines in memory again.
    /// - Throws: What reading the journal or the transport's write throws.
    private func resendPart(budget: Int) throws {
        guard var walk = resendWalk else { return }
        resendBytes.removeAll(keepingCapacity: true)
        let isOver = try walk.next(through: unconfirmed, budget: budget, into: &resendBytes)
        resendWalk = walk
        if !resendBytes.isEmpty { try transport.write(resendBytes) }
        guard isOver else { return }
        resendWalk = nil
        resendBytes = []
        for hole in walk.missing { countLost(hole) }
        unconfirmed.stopSpilling()
        wrote(newActions: walk.newActions)
    }

    /// Counts what the transport took, up to the last line held, and lets go of what the receiver confirmed.
    private func wrote(newActions: Int) {
        sentThrough = max(sentThrough, unconfirmed.lastSequence)
        unconfirmed.journal?.linesSent(through: sentThrough)
        let effectLines = takeUncountedEffectLines()
        mailbox.updateStatistics {
            $0.actionsWritten += newActions
            $0.effectLinesWritten += effectLines
        }
        if let persisted = transport.persistedSequence() {
            unconfirmed.confirm(through: persisted)
            heldGapNumbers.removeAll { $0.upperBound <= persisted }
            heldKeptNumbers.removeAll { $0.upperBound <= persisted }
        } else {
            unconfirmed.discard()
            heldGapNumbers.removeAll()
            heldKeptNumbers.removeAll()
        }
    }

    /// Sends the `end` line, then closes the transport. A first failure is tried once more on a new connection, so a
    /// receiver that restarted while the recorder was idle still gets the end; while the transport holds lines it
    /// has not confirmed, a failure is retried for up to two seconds, so a receiver that restarts just then still
    /// gets them. A journal is deleted once the receiver confirmed what it holds (or, sent in full, after those two
    /// seconds); one that could not be sent stays on disk for the next transport with its folder, its actions counted
    /// in ``RecorderStatistics/actionsJournaled``, ending with a `gap` for the lines it refused after its last one.
    func sendEnd(_ line: [UInt8]) {
        let deadline = MonotonicClock.nanoseconds() + 2_000_000_000
        // A connection that broke while the recorder was idle (the daemon restarted since) fails the first send;
        // the end is tried once more, on a new connection, even when no line is held to send again.
        var triedANewConnection = false
        while !send(line, held: false, newActions: 0) {
            let holdsLinesToResend = transport.persistedSequence() != nil && !unconfirmed.isEmpty
            guard holdsLinesToResend || !triedANewConnection, MonotonicClock.nanoseconds() < deadline else {
                // What the journal could not keep is lost with the app: the journal records it as a gap.
                if let lost = unconfirmed.journal?.close(recordingLossThrough: unconfirmed.lastSequence) {
                    countLost(lost)
                }
                closeTransport()
                return
            }
            if triedANewConnection { Thread.sleep(forTimeInterval: 0.05) }
            triedANewConnection = true
        }
        if let journal = unconfirmed.journal {
            while !journal.isEmpty, MonotonicClock.nanoseconds() < deadline,
                let persisted = transport.persistedSequence()
            {
                unconfirmed.confirm(through: persisted)
                if !journal.isEmpty { Thread.sleep(forTimeInterval: 0.01) }
            }
            journal.removeAll()
            reportCounts()
        }
        closeTransport()
    }

    /// The effect lines held since those last counted (as written or lost), now counted.
    private func takeUncountedEffectLines() -> Int {
        defer { countedEffectLines = heldEffectLines }
        return heldEffectLines - countedEffectLines
    }

    /// Puts in the statistics the journal's unsent actions, when they changed, and the actions kept without their
    /// states since the last call: those held in `gap` lines that keep them, and those the journal kept so.
    private func reportCounts() {
        for kept in unconfirmed.journal?.takeActionsKeptWithoutStates() ?? [] {
            heldKeptNumbers.append(kept)
            keptNotCounted += kept.count
        }
        let journaled = unconfirmed.journal?.unsentActions ?? 0
        guard journaled != reportedJournaled || keptNotCounted > 0 else { return }
        reportedJournaled = journaled
        let kept = keptNotCounted
        keptNotCounted = 0
        mailbox.updateStatistics {
            $0.actionsJournaled = journaled
            $0.actionsKeptWithoutStates += kept
        }
    }

    private func closeTransport() {
        do {
            try transport.close()
        } catch {
            mailbox.updateStatistics { $0.lastError = "\(error)" }
        }
    }

    /// Counts the sequence numbers of `lost` not counted before as dropped, and no longer as written when they were.
    private func countLost(_ lost: ClosedRange<Int>) {
        guard lost.upperBound > countedLostThrough else { return }
        let first = max(lost.lowerBound, countedLostThrough + 1)
        let actionsLost = actionNumbers(from: first, through: lost.upperBound)
        let wereWritten = actionNumbers(from: first, through: min(lost.upperBound, sentThrough))
        let wereKept = heldKeptNumbers.reduce(0) { $0 + Self.overlap(of: $1, with: first...lost.upperBound) }
        countedLostThrough = lost.upperBound
        heldGapNumbers.removeAll { $0.upperBound <= countedLostThrough }
        heldKeptNumbers.removeAll { $0.upperBound <= countedLostThrough }
        mailbox.updateStatistics {
            $0.droppedTransportFailed += actionsLost
            $0.actionsWritten -= wereWritten
            $0.actionsKeptWithoutStates -= wereKept
        }
    }

    /// How many of the numbers from `first` through `last` are actions: not those of a `gap` line held.
    private func actionNumbers(from first: Int, through last: Int) -> Int {
        guard last >= first else { return 0 }
        return heldGapNumbers.reduce(last - first + 1) { count, gap in count - Self.overlap(of: gap, with: first...last) }
    }

    /// How many numbers `a` and `b` share.
    private static func overlap(of a: ClosedRange<Int>, with b: ClosedRange<Int>) -> Int {
        max(0, min(a.upperBound, b.upperBound) - max(a.lowerBound, b.lowerBound) + 1)
    }
}
