/// Walks held lines in order (those of a journal, then those in memory) and gathers what to send to a receiver
/// that persisted every line up to a sequence number: the lines after it (the first action line, and the first
/// after a hole, with its full state), the effect lines after the action or gap it persisted, and the sequence
/// numbers after it that are no longer held.
///
/// A hole before the first line sent is only reported (``missing``), for the caller to send as a gap first; with
/// ``gapMessage`` set, a hole after a line was sent is written as a `gap` line (reason `transportFailed`) in its
/// place, so the lines stay in order.
struct ResendCursor {
    /// The runs of sequence numbers no longer held, in order.
    private(set) var missing: [ClosedRange<Int>] = []
    /// The run no longer held before the first numbered line sent, for the caller to send as a gap first.
    private(set) var holeBeforeFirstLine: ClosedRange<Int>?
    /// How many action lines walked cover sequence numbers after `newAfter`.
    private(set) var newActions = 0
    /// Whether a numbered line (action or gap) was sent.
    private(set) var sentNumberedLine = false
    /// The next sequence number the receiver expects.
    private var next: Int
    private let persisted: Int
    private let newAfter: Int
    private var effectLinesToSkip: Int
    private let gapMessage: String??
    private var needsFullState = true
    private var placedFirstGap = false

    /// Creates a cursor.
    /// - Parameters:
    ///   - persisted: The receiver's last persisted sequence number.
    ///   - skippingEffectLines: How many of the effect lines and notes right after `persisted` the receiver holds
    ///     already.
    ///   - newAfter: Action lines after this sequence number are counted in ``newActions``.
    ///   - gapMessage: When set, the message of the gap lines written for holes after the first line sent.
    init(after persisted: Int, skippingEffectLines: Int, newAfter: Int, gapMessage: String?? = nil) {
        self.persisted = persisted
        next = persisted + 1
        effectLinesToSkip = skippingEffectLines
        self.newAfter = newAfter
        self.gapMessage = gapMessage
    }

    /// Walks the next held line, appending what to send of it to `lines`.
    mutating func take(_ entry: UnconfirmedLines.Entry, into lines: inout [UInt8]) {
        // Those the receiver persisted from a write that failed part way are written as much as those sent again.
        if entry.sequences.lowerBound > newAfter { newActions += entry.actionCount }
        if entry.isUnnumbered {
            if entry.sequences.upperBound == persisted && effectLinesToSkip > 0 {
                effectLinesToSkip -= 1
            } else if !entry.isConfirmed(through: persisted) {
                lines += entry.bytes
            }
            return
        }
        guard entry.sequences.upperBound >= next else { return }
        if entry.sequences.lowerBound > next { skip(next...(entry.sequences.lowerBound - 1), into: &lines) }
        switch entry.content {
        case .gap(var gap):
            gap.firstSequence = max(gap.firstSequence, next)
            lines += SessionEvent.gap(gap).line
        case .keptActions where entry.sequences.lowerBound < next:
            // Part of the gap's numbers reached the receiver in other lines: the rest goes as a plain gap.
            lines += SessionEvent.gap(GapEvent(firstSequence: next, lastSequence: entry.sequences.upperBound, reason: .bufferFull)).line
        case .patch(let fullStateLine) where needsFullState:
            // The receiver requires a full state first after a reconnect, and after a hole.
            lines += fullStateLine
        case .state, .patch, .effect, .note, .keptActions:
            lines += entry.bytes
        }
        sentNumberedLine = true
        // After a gap that keeps actions, the receiver holds no state for a patch to apply to.
        needsFullState = entry.content == .keptActions
        next = entry.sequences.upperBound + 1
    }

    /// Ends the walk: the numbers up to `lastSequence` not walked are missing.
    mutating func finish(lastSequence: Int, into lines: inout [UInt8]) {
        if next <= lastSequence { skip(next...lastSequence, into: &lines) }
    }

    /// The `gap` line (reason `transportFailed`, with the gap message) for ``holeBeforeFirstLine``, to go before
    /// the first bytes sent: once, after the first numbered line is walked or the walk finished; empty otherwise.
    mutating func takeFirstGapLine() -> [UInt8] {
        guard !placedFirstGap, sentNumberedLine || !missing.isEmpty else { return [] }
        placedFirstGap = true
        guard let hole = holeBeforeFirstLine else { return [] }
        let gap = GapEvent(
            firstSequence: hole.lowerBound, lastSequence: hole.upperBound, reason: .transportFailed,
            message: gapMessage ?? nil)
        return SessionEvent.gap(gap).line
    }

    private mutating func skip(_ hole: ClosedRange<Int>, into lines: inout [UInt8]) {
        missing.append(hole)
        next = hole.upperBound + 1
        needsFullState = true
        guard sentNumberedLine else {
            holeBeforeFirstLine = hole
            return
        }
        guard let gapMessage else { return }
        let gap = GapEvent(
            firstSequence: hole.lowerBound, lastSequence: hole.upperBound, reason: .transportFailed,
            message: gapMessage)
        lines += SessionEvent.gap(gap).line
    }
}

extension ResendCursor {
    /// The most bytes of a resend gathered before they are written, so a journal is sent without reading all of
    /// it into memory.
    static var chunkBytes: Int { 1 << 20 }

    /// Walks the lines `forEachHeld` gives and gathers what to send of them: a `gap` (reason `transportFailed`,
    /// with the cursor's gap message) for the hole before the first line, then the lines, with gap lines for the
    /// holes between them; past ``chunkBytes`` the bytes gathered are written through `write` (after `prefix`,
    /// which is then emptied).
    /// - Returns: The bytes gathered and not yet written, after what is left of `prefix`.
    /// - Throws: What `forEachHeld` or `write` throws.
    mutating func gather(
        lastSequence: Int, prefix: inout [UInt8],
        forEachHeld: ((UnconfirmedLines.Entry) throws -> Void) throws -> Void, write: @escaping ([UInt8]) throws -> Void
    ) throws -> [UInt8] {
        var lines: [UInt8] = []
        try forEachHeld { entry in
            take(entry, into: &lines)
            guard sentNumberedLine, lines.count >= Self.chunkBytes else { return }
            prefix += takeFirstGapLine()
            try write(prefix + lines)
            prefix = []
            lines.removeAll(keepingCapacity: true)
        }
        finish(lastSequence: lastSequence, into: &lines)
        prefix += takeFirstGapLine()
        return prefix + lines
    }
}
