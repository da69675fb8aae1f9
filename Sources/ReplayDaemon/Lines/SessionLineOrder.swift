import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// What may follow what in one session, by the session reader's rules: the daemon stores a valid line only when
/// this accepts it, so what it stores reads to the end.
///
/// - Sequence numbers: an action's `seq` comes right after the last action or gap (1 first), and a gap starts
///   right there too. A repeat or a step back is refused (a duplicate: nothing is lost). A skip is accepted with
///   the numbers it skips, for which the daemon stores a `gap` line of its own just before it (see
///   ``Verdict/accepted(missing:)``): the client skips after a line the daemon rejected, and refusing the skip would
///   lose every line after it.
/// - A header comes only first, in a format this daemon stores, with usable ids (``problem(startingWith:)``, which
///   the worker asks before it opens the session); nothing follows an `end`.
/// - A `patch` applies to the previous line's state (the header's `initialState` for the first action): it is
///   applied here, and refused when it does not apply, when a gap came before it, or on a continued session whose
///   stored state the daemon has not read.
///
/// The state is kept only as far as a patch needs it: a full `state` line leaves its bytes, read as JSON only when
/// a patch arrives; a patch leaves the state it produced.
package struct SessionLineOrder {
    /// The last sequence number an action or gap covered (0 before any).
    package private(set) var covered: Int
    /// True once an `end` is accepted.
    package private(set) var hasEnded = false
    private var base: Base
    /// Storage for ``Base/copied``, kept from line to line.
    private var copiedState: [UInt8] = []
    /// The effect lines (`call`, `effectEnd`) and notes accepted since the last action or gap, the one that covers
    /// ``covered``: with it, a position in the session's lines that effect lines and notes also have.
    package private(set) var effectLinesSinceCovered = 0
    /// The rules between effect lines, the reader's own; a refused line leaves them as they were.
    private var effectLines: EffectLineOrder

    /// The state a patch applies to.
    private enum Base {
        /// None the daemon knows: a continued session before its first full state or gap.
        case unknownAfterReconnect
        /// None: a gap came last.
        case afterGap
        /// A state as JSON.
        case value(JSONValue)
        /// A full state's bytes as the line held them, in the read buffer until ``copyBorrowedState()``.
        case borrowed(UnsafeBufferPointer<UInt8>)
        /// A full state's bytes in ``copiedState``.
        case copied
    }

    /// The order of a new session of `formatVersion`, which starts from its header's initial state.
    package init(startingFrom initialState: JSONValue, formatVersion: Int) {
        covered = 0
        base = .value(initialState)
        effectLines = EffectLineOrder(formatVersion: formatVersion)
    }

    /// The order of a session of `formatVersion` continued after a reconnect, whose file covers up to
    /// `lastSequence` and holds no effect line after its last action or gap.
    package init(continuingAfter lastSequence: Int, formatVersion: Int) {
        self.init(
            continuingAfter: lastSequence, effectLinesSinceCovered: 0,
            effectLines: EffectLineOrder(formatVersion: formatVersion))
    }

    /// The order of a session continued after a reconnect, whose file covers up to `lastSequence`, holds
    /// `effectLinesSinceCovered` effect lines after its last action or gap, and left its runs as `effectLines` says.
    package init(continuingAfter lastSequence: Int, effectLinesSinceCovered: Int, effectLines: EffectLineOrder) {
        covered = lastSequence
        base = .unknownAfterReconnect
        self.effectLinesSinceCovered = effectLinesSinceCovered
        self.effectLines = effectLines
    }

    /// The order a continuation of the session after a reconnect keeps, as
    /// ``init(continuingAfter:effectLinesSinceCovered:effectLines:)`` makes it from the stored file: what the lines
    /// cover and the effect runs still open, without the state a patch applies to.
    package var continuation: SessionLineOrder {
        SessionLineOrder(
            continuingAfter: covered, effectLinesSinceCovered: effectLinesSinceCovered, effectLines: effectLines)
    }

    /// The longest session or store id accepted, in bytes; longer ones are refused rather than cut.
    package static let maxIDBytes = 1024

    /// Why `header` cannot start a session, if it cannot: a format this daemon does not store, or an id that is
    /// empty, too long or holds a NUL.
    package static func problem(startingWith header: SessionHeader) -> String? {
        guard SessionFormat.readableVersions.contains(header.formatVersion) else {
            return "format \(header.formatVersion) is not supported; this replayd stores formats "
                + "\(SessionFormat.readableVersions.lowerBound) to \(SessionFormat.readableVersions.upperBound)"
        }
        for (field, id) in [("sessionId", header.sessionID), ("storeId", header.storeID)] {
            if id.isEmpty { return "field '\(field)' is empty" }
            if id.utf8.count > maxIDBytes { return "field '\(field)' is \(id.utf8.count) bytes; the limit is \(maxIDBytes)" }
            if id.utf8.contains(0) { return "field '\(field)' contains a NUL byte" }
        }
        return nil
    }

    /// What ``accept(_:)`` says of a line.
    package enum Verdict: Equatable {
        /// The line follows; `missing`, when not `nil`, holds the sequence numbers it skipped, which the daemon
        /// stores a gap for just before it.
        case accepted(missing: ClosedRange<Int>?)
        /// The line cannot follow, for this reason.
        case refused(String)
    }

    /// Takes a valid line into the session, or says why it cannot follow what came before.
    /// - Returns: ``Verdict/accepted(missing:)`` when the line is accepted (and counted as the session's latest,
    ///   after the numbers it skipped); else ``Verdict/refused(_:)`` with the reason.
    package mutating func accept(_ line: SessionLineValidator.Checked) -> Verdict {
        if hasEnded { return .refused("the session has ended; nothing may follow its 'end' line") }
        switch line {
        case .header:
            return .refused("a session header may only be the first line of a connection")
        case .action(let action):
            if action.sequence <= covered {
                return .refused(Self.readerReason(.sequenceNotIncreasing(sequence: action.sequence, covered: covered)))
            }
            if let problem = effectLines.problem(actionNamingEffect: action.namesEffect, isFromApp: action.isFromApp) {
                return .refused("\(problem)")
            }
            let missing = skipped(before: action.sequence)
            switch action.snapshot {
            case .state(let state): base = .value(state)
            case .stateBytes(let bytes): base = .borrowed(bytes)
            case .patch(let patch):
                if let missing {
                    return .refused(
                        patchProblem(
                            "has no state to apply to: seq \(action.sequence) skips \(Self.range(missing)), so replayd "
                                + "stores a gap for them before it, and after a gap a line holds a full 'state'"))
                }
                if let problem = apply(patch) { return .refused(problem) }
            }
            if missing != nil { effectLines.noteGap() }
            covered = action.sequence
            effectLinesSinceCovered = 0
            return .accepted(missing: missing)
        case .gap(let gap):
            if gap.firstSequence <= covered {
                return .refused(
                    Self.readerReason(
                        .gapNotContiguous(first: gap.firstSequence, last: gap.lastSequence, covered: covered)))
            }
            let missing = skipped(before: gap.firstSequence)
            covered = gap.lastSequence
            effectLinesSinceCovered = 0
            effectLines.noteGap()
            base = .afterGap
            return .accepted(missing: missing)
        case .end(let end):
            hasEnded = true
            // An end counting actions past those covered (at most the largest sequence number, which the decoder
            // checks): the daemon stores a gap for them, as for a skip.
            return .accepted(missing: skipped(before: end.actions + 1))
        case .effectRun(let line):
            if let problem = effectLines.admitIfValid(line, covered: covered) { return .refused("\(problem)") }
            effectLinesSinceCovered += 1
            return .accepted(missing: nil)
        case .unnumbered(let event):
            if let problem = effectLines.admitIfValid(event, covered: covered) { return .refused("\(problem)") }
            effectLinesSinceCovered += 1
            return .accepted(missing: nil)
        }
    }

    /// Copies a full state held as bytes of the read buffer, before that buffer is reused for the next read.
    package mutating func copyBorrowedState() {
        guard case .borrowed(let bytes) = base else { return }
        copiedState.removeAll(keepingCapacity: true)
        copiedState.append(contentsOf: bytes)
        base = .copied
    }

    /// The sequence numbers between those covered and `sequence`, a number after them, if there are any.
    private func skipped(before sequence: Int) -> ClosedRange<Int>? {
        sequence > covered + 1 ? (covered + 1)...(sequence - 1) : nil
    }

    /// The session reader's own words for `problem`.
    private static func readerReason(_ problem: SessionReadError.Problem) -> String {
        SessionReadError(source: "", line: 0, problem: problem).reason
    }

    /// Applies `patch` to the previous state and keeps the result; else says why it cannot.
    private mutating func apply(_ patch: JSONPatch) -> String? {
        let previous: JSONValue
        switch base {
        case .unknownAfterReconnect:
            return patchProblem(
                "has no state to apply to: this connection continues a stored session whose state replayd has not "
                    + "read; send a full 'state' (or a 'gap') first after reconnecting")
        case .afterGap:
            // The session reader's own words.
            return patchProblem(
                "has no state to apply to: a gap came before it (after a gap a line holds a full 'state')")
        case .value(let value):
            previous = value
        case .borrowed(let bytes):
            do {
                previous = try JSONValue(parsing: bytes)
            } catch {
                return patchProblem("has no state to apply to: the previous state does not parse: \(error)")
            }
        case .copied:
            do {
                previous = try JSONValue(parsing: copiedState)
            } catch {
                return patchProblem("has no state to apply to: the previous state does not parse: \(error)")
            }
        }
        do {
            base = .value(try patch.apply(to: previous))
            return nil
        } catch {
            return patchProblem("\(error)")
        }
    }

    private func patchProblem(_ message: String) -> String {
        "\(SessionEventDecodingError(path: "patch", message: message))"
    }

    /// `5` or `5...9`.
    static func range(_ numbers: ClosedRange<Int>) -> String {
        numbers.count == 1 ? "\(numbers.lowerBound)" : "\(numbers.lowerBound)...\(numbers.upperBound)"
    }
}
