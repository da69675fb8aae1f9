/// The session lines a recorder has sent (or tried to send) that its receiver has not yet confirmed it persisted,
/// bounded in bytes, so that after a reconnect the recorder can send them again from the receiver's last persisted
/// sequence number instead of recording them as lost.
///
/// Lines are kept in sequence order. When the bound is exceeded the oldest lines go first; what a resend then cannot
/// cover is reported as missing, and the recorder writes it as a `gap`. Under delta snapshots a patch line is held
/// with its full-state form too (both count toward the bound), because a resend must begin with a full state.
///
/// An effect line (`call`, `effectEnd`) has no sequence number of its own: it is held at the number of the action
/// or gap before it, confirmed only once a later number is (the receiver stores lines in order), and sent again
/// after a reconnect when it came after the receiver's last persisted number. A receiver that stored some of those
/// before the connection broke gets them twice, in order, right after its last stored action or gap, and is
/// expected to skip those equal to the effect lines it holds there. A `note` line is held and sent again the same
/// way, and counts among those lines: the receiver skips the effect lines and notes it holds there.
///
/// With a ``SessionJournal``, the oldest lines go to it instead of being let go when the bound is exceeded, and
/// every line does while the receiver is unreachable (``spillAll()``); the journal's lines always come before those
/// held in memory, and each of its segment files is deleted once the receiver confirmed every line in it.
package struct UnconfirmedLines {
    /// One line and the sequence numbers it covers.
    package struct Entry: Equatable {
        /// What the line carries.
        package enum Content: Equatable {
            /// An `action` line with a full `state`.
            case state
            /// An `action` line with a `patch` against the previous line's state, and the same line with the full
            /// state instead, sent when the line starts a resend.
            case patch(fullStateLine: [UInt8])
            /// A `gap` line that keeps no actions.
            case gap(GapEvent)
            /// A `gap` line that keeps the actions it covers (reason `bufferFull`): they count as actions.
            case keptActions
            /// A `call` or `effectEnd` line of the run of `effect` for the action `cause`.
            case effect(cause: Int, effect: String)
            /// A `note` line.
            case note
        }

        /// The sequence numbers the line covers (one for an action line); for an effect line or a note, the number
        /// of the action or gap before it (0 before any).
        package var sequences: ClosedRange<Int>
        /// The line's bytes, `\n` included.
        package var bytes: [UInt8]
        /// The bytes the entry holds, both forms of a patch line included.
        var heldBytes: Int {
            if case .patch(let full) = content { bytes.count + full.count } else { bytes.count }
        }
        /// What the line carries.
        package var content: Content

        /// Creates an entry.
        package init(sequences: ClosedRange<Int>, bytes: [UInt8], content: Content) {
            self.sequences = sequences
            self.bytes = bytes
            self.content = content
        }

        /// How many actions the line holds: one for an action line, those kept by a gap that keeps them.
        var actionCount: Int {
            switch content {
            case .state, .patch: 1
            case .keptActions: sequences.count
            case .gap, .effect, .note: 0
            }
        }

        /// Whether the line has no sequence number of its own: an effect line or a note, held at the number before
        /// it.
        var isUnnumbered: Bool {
            switch content {
            case .effect, .note: true
            case .state, .patch, .gap, .keptActions: false
            }
        }

        /// Whether the receiver has the line once it confirmed every number up to `confirmed`: an effect line or a
        /// note only once a number after it is.
        func isConfirmed(through confirmed: Int) -> Bool {
            isUnnumbered ? sequences.upperBound < confirmed : sequences.upperBound <= confirmed
        }
    }

    /// What to send after a reconnect.
    package struct Resend: Equatable {
        /// The sequence numbers no longer held, to be recorded as a gap before ``lines``.
        package var missing: ClosedRange<Int>?
        /// The lines to send again, in order.
        package var lines: [UInt8]
        /// How many held action lines cover sequence numbers after the `newAfter` given: written now, whether the
        /// receiver persisted them before the reconnect (from a write cut short) or they are in ``lines``.
        package var newActions: Int
    }

    /// The most bytes the held lines may take; the newest line is always held.
    package let byteLimit: Int
    /// The highest sequence number the receiver confirmed.
    package private(set) var confirmed = 0
    /// The highest sequence number of any line appended.
    package private(set) var lastSequence = 0
    /// The bytes of the lines held.
    package private(set) var byteCount = 0
    /// Where the lines go that memory does not hold, when there is one.
    package let journal: SessionJournal?
    private var entries: [Entry] = []
    private var head = 0
    /// Whether new lines go straight to the journal (the receiver is unreachable and memory holds none).
    private var spillsNewLines = false

    /// Creates an empty buffer bounded to `byteLimit` bytes in memory, and to the journal's bound beyond that.
    package init(byteLimit: Int, journal: SessionJournal? = nil) {
        self.byteLimit = max(0, byteLimit)
        self.journal = journal
    }

    /// The lines held in memory, oldest first (those of the journal come before them).
    package var held: ArraySlice<Entry> { entries[head...] }

    /// True when no line is held, in memory or in the journal.
    package var isEmpty: Bool { held.isEmpty && journal?.isEmpty != false }

    /// Holds a line; moves the oldest lines to the journal (or, when it refuses them, drops them) while the bound
    /// is exceeded.
    package mutating func append(_ entry: Entry) {
        lastSequence = max(lastSequence, entry.sequences.upperBound)
        if spillsNewLines, let journal, journal.append(entry) { return }
        spillsNewLines = false
        entries.append(entry)
        byteCount += entry.heldBytes
        while byteCount > byteLimit && entries.count - head > 1 { spillOrDropFirst() }
        compact()
    }

    /// Moves every line held in memory to the journal, and the lines appended after them too until
    /// ``stopSpilling()``: the receiver is unreachable, and a line on disk outlives the app. Without a journal,
    /// or once it refuses a line, lines stay in memory.
    package mutating func spillAll() {
        guard let journal else { return }
        while head < entries.count, journal.append(entries[head]) { dropFirst() }
        spillsNewLines = head == entries.count
        compact()
        journal.flush()
    }

    /// Holds new lines in memory again: the receiver is back.
    package mutating func stopSpilling() {
        spillsNewLines = false
    }

    /// Records that the receiver persisted every line up to `sequence`, and drops those lines (deleting each
    /// journal segment that holds no other).
    package mutating func confirm(through sequence: Int) {
        confirmed = max(confirmed, sequence)
        journal?.confirm(through: confirmed)
        while head < entries.count && entries[head].isConfirmed(through: confirmed) { dropFirst() }
        compact()
    }

    /// Drops every line: the receiver keeps nothing it did not take at once, so nothing can be sent again.
    /// - Returns: The runs (cause, effect) of the effect lines dropped from memory.
    @discardableResult
    package mutating func discard() -> [(cause: Int, effect: String)] {
        journal?.removeAll()
        spillsNewLines = false
        var runs: [(cause: Int, effect: String)] = []
        while head < entries.count {
            if case .effect(let cause, let effect) = entries[head].content { runs.append((cause, effect)) }
            dropFirst()
        }
        compact()
        return runs
    }

    /// Calls `body` with every line held, those of the journal first.
    /// - Throws: What `body` throws.
    package func forEachHeld(_ body: (Entry) throws -> Void) throws {
        try journal?.forEachEntry(body)
        for entry in held { try body(entry) }
    }

    /// What to send to a receiver that persisted every line up to `persisted`: the held lines after it (the first
    /// action line with its full state), the effect lines after the action or gap `persisted` among them, and the
    /// sequence numbers after it that are no longer held.
    /// - Parameters:
    ///   - skippingEffectLines: How many of the effect lines right after `persisted` the receiver holds already
    ///     (the daemon's welcome says); they are not sent again.
    ///   - newAfter: Action lines after this sequence number are counted in ``Resend/newActions``.
    package func resend(after persisted: Int, skippingEffectLines: Int = 0, newAfter: Int) -> Resend {
        var lines: [UInt8] = []
        var cursor = ResendCursor(after: persisted, skippingEffectLines: skippingEffectLines, newAfter: newAfter)
        for entry in held { cursor.take(entry, into: &lines) }
        cursor.finish(lastSequence: lastSequence, into: &lines)
        let missing = cursor.missing.first.map { $0.lowerBound...cursor.missing.last!.upperBound }
        return Resend(missing: missing, lines: lines, newActions: cursor.newActions)
    }

    /// Moves the oldest line in memory to the journal, or drops it when the journal refuses it (or there is none).
    private mutating func spillOrDropFirst() {
        _ = journal?.append(entries[head])
        dropFirst()
    }

    private mutating func dropFirst() {
        byteCount -= entries[head].heldBytes
        entries[head] = Entry(sequences: entries[head].sequences, bytes: [], content: .state)
        head += 1
    }

    /// Frees the dropped slots once they are half of the storage, so dropping stays cheap on average.
    private mutating func compact() {
        guard head > 0, head * 2 >= entries.count else { return }
        entries.removeFirst(head)
        head = 0
    }

}
