/// A resend after a reconnect, walked a part at a time so that the recorder can go on taking the app's actions in
/// between: a long resend from the journal would otherwise leave the app's queue to fill up while it lasts.
///
/// It walks the held lines with a ``ResendCursor``: the journal's first, a part at a time (the lines the journal
/// takes meanwhile, after those it held, are walked too), then those in memory, all at once, which ends it.
package struct ResendWalk {
    private var cursor: ResendCursor
    private var position = SessionJournal.Position()
    private var lines: [UInt8] = []

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
    /// them), or every line `unconfirmed` holds.
    /// - Returns: What to send now (a `gap` for the run no longer held before the first line goes first), and
    ///   whether the walk is over: once those bytes are sent, every line held was sent.
    /// - Throws: What reading the journal throws.
    package mutating func next(
        through unconfirmed: UnconfirmedLines, budget: Int
    ) throws -> (bytes: [UInt8], isOver: Bool) {
        if let journal = unconfirmed.journal {
            let walkedAll = try journal.forEachEntry(from: &position) { entry in
                cursor.take(entry, into: &lines)
                return !(cursor.sentNumberedLine && lines.count >= budget)
            }
            if !walkedAll { return (takeGathered(), false) }
        }
        for entry in unconfirmed.held { cursor.take(entry, into: &lines) }
        cursor.finish(lastSequence: unconfirmed.lastSequence, into: &lines)
        return (takeGathered(), true)
    }

    private mutating func takeGathered() -> [UInt8] {
        defer { lines = [] }
        return cursor.takeFirstGapLine() + lines
    }
}
