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
/// expected to skip those equal to the effect lines it holds there.
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
            /// A `gap` line.
            case gap(GapEvent)
            /// A `call` or `effectEnd` line of the run of `effect` for the action `cause`.
            case effect(cause: Int, effect: String)
        }

        /// The sequence numbers the line covers (one for an action line); for an effect line, the number of the
        /// action or gap before it (0 before any).
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

        var isAction: Bool {
            switch content {
            case .state, .patch: true
            case .gap, .effect: false
            }
        }

        /// Whether the receiver has the line once it confirmed every number up to `confirmed`: an effect line only
        /// once a number after it is.
        func isConfirmed(through confirmed: Int) -> Bool {
            if case .effect = content { sequences.upperBound < confirmed } else { sequences.upperBound <= confirmed }
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
    private var entries: [Entry] = []
    private var head = 0

    /// Creates an empty buffer bounded to `byteLimit` bytes.
    package init(byteLimit: Int) {
        self.byteLimit = max(0, byteLimit)
    }

    /// The lines held, oldest first.
    package var held: ArraySlice<Entry> { entries[head...] }

    /// Holds a line; drops the oldest lines while the bound is exceeded.
    package mutating func append(_ entry: Entry) {
        entries.append(entry)
        byteCount += entry.heldBytes
        lastSequence = max(lastSequence, entry.sequences.upperBound)
        while byteCount > byteLimit && entries.count - head > 1 { dropFirst() }
        compact()
    }

    /// Records that the receiver persisted every line up to `sequence`, and drops those lines.
    package mutating func confirm(through sequence: Int) {
        confirmed = max(confirmed, sequence)
        while head < entries.count && entries[head].isConfirmed(through: confirmed) { dropFirst() }
        compact()
    }

    /// Drops every line: the receiver keeps nothing it did not take at once, so nothing can be sent again.
    /// - Returns: The runs (cause, effect) of the effect lines dropped.
    @discardableResult
    package mutating func discard() -> [(cause: Int, effect: String)] {
        var runs: [(cause: Int, effect: String)] = []
        while head < entries.count {
            if case .effect(let cause, let effect) = entries[head].content { runs.append((cause, effect)) }
            dropFirst()
        }
        compact()
        return runs
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
        // Those the receiver persisted from a write that failed part way are written as much as those sent again.
        let newActions = held.lazy.filter { $0.isAction && $0.sequences.lowerBound > newAfter }.count
        var next = persisted + 1
        var missing: ClosedRange<Int>?
        var sentNumberedLine = false
        var effectLinesToSkip = skippingEffectLines
        for entry in held {
            if case .effect = entry.content {
                if entry.sequences.upperBound == persisted && effectLinesToSkip > 0 {
                    effectLinesToSkip -= 1
                } else if !entry.isConfirmed(through: persisted) {
                    lines += entry.bytes
                }
                continue
            }
            guard entry.sequences.upperBound >= next else { continue }
            if entry.sequences.lowerBound > next {
                missing = (missing?.lowerBound ?? next)...(entry.sequences.lowerBound - 1)
            }
            switch entry.content {
            case .gap(var gap):
                gap.firstSequence = max(gap.firstSequence, next)
                lines += SessionEvent.gap(gap).line
            case .patch(let fullStateLine) where !sentNumberedLine:
                // The receiver requires a full state first after a reconnect.
                lines += fullStateLine
            case .state, .patch, .effect:
                lines += entry.bytes
            }
            sentNumberedLine = true
            next = entry.sequences.upperBound + 1
        }
        if next <= lastSequence { missing = (missing?.lowerBound ?? next)...lastSequence }
        return Resend(missing: missing, lines: lines, newActions: newActions)
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
