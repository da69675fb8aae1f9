/// A resend after a reconnect, walked a part at a time so that the recorder can go on taking the app's actions in
/// between: a long resend from the journal would otherwise leave the app's queue to fill up while it lasts.
///
/// It walks the held lines with a ``ResendCursor``: the journal's first, a part at a time (the lines the journal
/// takes meanwhile, after those it held, are walked too), then those in memory, all at once, which ends it.
package struct ResendWalk {
    private var cursor: ResendCursor
    private var position = SessionJournal.Position()

    /// Creates a walk for a receiver that persisted every line up to `persisted` (see ``ResendCursor``).
    /// - Parameters:
    ///   - skippingEffectLines: How many of the effect lines and notes right after `persisted` the receiver holds
    ///     already.
    ///   - newAfter: Action lines after this sequence number are counted in ``newActions``.
    ///   - gapMessage: The message of the `gap` lines written for the numbers no longer held.
    package init(after persisted: Int, skippingEffectLines: Int, newAfter: Int, gapMessage: String?) {
        cursor = ResendCursor(
            after: persisted, skippingEffectLines: skippingEffectLines, newAfter: newAfter, gapMessage: gapMessage)
    }

    /// How many action lines walked cover sequence numbers after the `newAfter` given.
    package var newActions: Int { cursor.newActions }

    /// The runs of sequence numbers walked and no longer held, in order.
    package var missing: [ClosedRange<Int>] { cursor.missing }

    /// Walks on from where it stopped until it gathered about `budget` bytes to send (once a numbered line is among
    /// them), or every line `unconfirmed` holds, appending them to `bytes`: the caller keeps that storage from part
    /// to part, so a long resend does not allocate (and fault in) megabytes afresh for each.
    /// - Returns: Whether the walk is over: once `bytes` are sent, every line held was sent. What to send starts
    ///   with a `gap` for the run no longer held before the first line, once that run is known.
    /// - Throws: What reading the journal throws.
    package mutating func next(
        through unconfirmed: UnconfirmedLines, budget: Int, into bytes: inout [UInt8]
    ) throws -> Bool {
        let start = bytes.count
        if let journal = unconfirmed.journal {
            let walkedAll = try journal.forEachEntry(from: &position) { entry in
                cursor.take(entry, into: &bytes)
                return !(cursor.sentNumberedLine && bytes.count - start >= budget)
            }
            if !walkedAll {
                placeFirstGapLine(in: &bytes, at: start)
                return false
            }
        }
        for entry in unconfirmed.held { cursor.take(entry, into: &bytes) }
        cursor.finish(lastSequence: unconfirmed.lastSequence, into: &bytes)
        placeFirstGapLine(in: &bytes, at: start)
        return true
    }

    /// Puts the `gap` for the run no longer held before the first line sent, once it is known, before the lines
    /// this part gathered from `start` on.
    private mutating func placeFirstGapLine(in bytes: inout [UInt8], at start: Int) {
        let gapLine = cursor.takeFirstGapLine()
        if !gapLine.isEmpty { bytes.insert(contentsOf: gapLine, at: start) }
    }
}
