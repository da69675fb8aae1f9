import StoreKitCore
import StoreKitJSON

/// The one strict reading of a session: turns its lines, in order, into events, and refuses any line that breaks the
/// format.
///
/// Every reader of a session goes through this type, so they all accept and refuse the same files:
/// ``SessionReader`` (behind `Session`, replay and every `replay-cli` command) stops at the first line it refuses;
/// ``SessionVerifier`` keeps going and lists every refused line. The rules, line by line:
/// - the line fits the size limit, is not empty, and is one JSON object that decodes as an event;
/// - the first line is the `session` header, in a format version this library reads, and no other line is one;
/// - each `action` line's `seq` is one more than the last sequence number covered (by an action line, or by a `gap`
///   line's `to`), and each `gap` line starts right after it: a number that repeats, goes backwards, or is skipped
///   with no `gap` line to name it breaks the file;
/// - the `end` line's `actions` counts no more than the sequence numbers covered: actions past them would have no
///   line to say they are missing;
/// - a `patch` applies to the state of the line before it, which must not be a gap (after a gap a line holds a
///   full `state`); the decoder returns the action with its ``ActionEvent/state`` filled in.
///
/// After a line it refuses, the decoder assumes as little as it can, so the lines after it are still checked for
/// what can be checked: after a line that does not decode, the state a patch applies to and the last sequence number
/// are unknown, so the next patch is not checked and the next `seq` only has to be higher than the last one known.
/// Events returned after a refused line may therefore hold an unresolved patch state (`null`); only a caller that
/// goes on after an error (the verifier) sees them.
///
/// ```swift
/// var decoder = SessionLineDecoder(source: "todos.jsonl")
/// let event = try decoder.decode(line: bytes)   // one line, without its "\n"
/// ```
public struct SessionLineDecoder: Sendable {
    /// The name of the session in errors: its path, `<stdin>`, or `<memory>`.
    public let source: String
    /// The longest line accepted, in bytes.
    public let maxLineBytes: Int
    /// How many lines were decoded or refused so far: the number of the last one.
    public private(set) var lineNumber = 0
    /// Whether a line decoded as an `end`, whether the rules between lines accepted it or not.
    private(set) var hasSeenEnd = false

    private var header = HeaderStatus.notYet
    /// What the parser learned from the lines so far: a session's lines are alike.
    private var parserMemory = JSONParserMemory()
    /// The actions read last from scanned lines, so that one read again shares its value's storage.
    private var recentActions = RecentValues()
    private var base = PatchBase.known(.null)
    private var covered = Covered.exactly(0)
    /// The rules between effect lines, for the header's format version.
    private var effectLines = EffectLineOrder(formatVersion: SessionFormat.version)

    /// Whether the header came yet.
    private enum HeaderStatus {
        case notYet
        case seen
        /// The first line was refused, so whether the session has a header is unknown; no more header errors.
        case unknown
    }

    /// The state a `patch` line applies to.
    private enum PatchBase {
        case known(JSONValue)
        /// The state a line holds, left unbuilt: the object at `range` in `line`.
        case unbuilt(line: [UInt8], range: Range<Int>)
        /// A gap came last: the next line must hold a full `state`.
        case afterGap
        /// A refused line came last: a patch cannot be checked.
        case unknown
    }

    /// The sequence numbers the lines so far cover.
    private enum Covered {
        /// Up to this number: the next action or gap starts at the number after it.
        case exactly(Int)
        /// Up to at least this number (a refused line came since): the next one only has to be higher.
        case atLeast(Int)

        var number: Int {
            switch self {
            case .exactly(let number), .atLeast(let number): number
            }
        }
    }

    /// Creates a decoder for a session named `source` in errors.
    public init(source: String, maxLineBytes: Int = SessionFormat.defaultMaxLineBytes) {
        self.source = source
        self.maxLineBytes = maxLineBytes
    }

    /// Decodes the session's next line.
    /// - Parameters:
    ///   - line: The line's bytes, without its `\n`.
    ///   - isTerminated: False for a last line that ended without `\n`; when such a line is not valid JSON, it is
    ///     reported as cut off.
    /// - Returns: The line's event; an action stored as a patch comes with its state resolved.
    /// - Throws: ``SessionReadError`` at this line for anything the format does not allow.
    public mutating func decode(line: [UInt8], isTerminated: Bool = true) throws(SessionReadError) -> SessionEvent {
        try decodeWithJSON(line: line, isTerminated: isTerminated).event
    }

    /// Decodes the next line like ``decode(line:isTerminated:)``, and returns the JSON object it holds too.
    mutating func decodeWithJSON(
        line: [UInt8], isTerminated: Bool
    ) throws(SessionReadError) -> (json: JSONValue, event: SessionEvent) {
        let decoded = try decodeLocatingState(line: line, isTerminated: isTerminated)
        return (decoded.json, decoded.event)
    }

    /// Decodes the next line like ``decode(line:isTerminated:)``, and returns the JSON object it holds and where in
    /// `line` its `state` member's value lies (`nil` for a line without one, such as an action stored as a patch).
    mutating func decodeLocatingState(
        line: [UInt8], isTerminated: Bool
    ) throws(SessionReadError) -> (json: JSONValue, event: SessionEvent, state: Range<Int>?) {
        try countLine(line)
        return try decodeCounted(line: line, isTerminated: isTerminated)
    }

    /// Decodes the line just counted by parsing it whole.
    private mutating func decodeCounted(
        line: [UInt8], isTerminated: Bool
    ) throws(SessionReadError) -> (json: JSONValue, event: SessionEvent, state: Range<Int>?) {
        let value: JSONValue
        let stateRange: Range<Int>?
        do {
            (value, stateRange) = try JSONParser().parse(line, memory: &parserMemory, locatingMember: "state")
        } catch {
            throw refuseUnreadableLine(isTerminated ? .notJSON(error) : .truncatedLastLine(error))
        }
        let event: SessionEvent
        do {
            event = try SessionEvent(jsonValue: value)
        } catch {
            throw refuseUnreadableLine(.invalidEvent(error))
        }
        return (value, try admitDecoded(event), stateRange)
    }

    /// Decodes the next line like ``decode(line:isTerminated:)`` when it is valid JSON with the top-level `members`
    /// ``JSONLineScanner`` found in it, says where `line` holds its `state`, and whether that state was left unbuilt.
    ///
    /// An action line with a `state` object is read from its members alone: the state is not built, the event's
    /// ``ActionEvent/state`` is an empty object in its place, the caller parses it from the line when it needs it,
    /// and a patch on the next line applies to it as it is. Any other line is parsed whole.
    mutating func decodeScanned(
        line: [UInt8], isTerminated: Bool, members: [JSONLineScanner.Member]
    ) throws(SessionReadError) -> (event: SessionEvent, state: Range<Int>?, stateIsUnbuilt: Bool) {
        try countLine(line)
        let scanned: (event: SessionEvent, state: Range<Int>)?
        do {
            scanned = try line.withUnsafeBufferPointer { (buffer) throws(SessionEventDecodingError) in
                try SessionEvent.scannedAction(members, in: buffer, memory: &parserMemory, recent: &recentActions)
            }
        } catch {
            throw refuseUnreadableLine(.invalidEvent(error))
        }
        guard let scanned else {
            let decoded = try decodeCounted(line: line, isTerminated: isTerminated)
            return (decoded.event, decoded.state, false)
        }
        let unbuilt = PatchBase.unbuilt(line: line, range: scanned.state)
        return (try admitDecoded(scanned.event, unbuiltState: unbuilt), scanned.state, true)
    }

    /// Counts the next line, refusing it when it is too long or empty.
    private mutating func countLine(_ line: [UInt8]) throws(SessionReadError) {
        guard line.count <= maxLineBytes else {
            try decodeOverlongLine()
        }
        lineNumber += 1
        if line.isEmpty { throw refuseUnreadableLine(.emptyLine) }
    }

    /// Counts a line too long to hold and refuses it.
    /// - Throws: ``SessionReadError`` with ``SessionReadError/Problem/lineTooLong(limit:)``, always.
    public mutating func decodeOverlongLine() throws(SessionReadError) -> Never {
        lineNumber += 1
        throw refuseUnreadableLine(.lineTooLong(limit: maxLineBytes))
    }

    /// Counts a line too long to hold and refuses it; the byte count is no longer reported.
    /// - Throws: ``SessionReadError`` with ``SessionReadError/Problem/lineTooLong(limit:)``, always.
    @available(*, deprecated, renamed: "decodeOverlongLine()", message: "a reader stops at the limit and no longer knows the line's length")
    public mutating func decodeOverlongLine(byteCount: Int) throws(SessionReadError) -> Never {
        try decodeOverlongLine()
    }

    /// Says whether the input, now at its end, was a session at all.
    /// - Throws: ``SessionReadError`` with ``SessionReadError/Problem/empty`` when there was no line.
    public func finish() throws(SessionReadError) {
        if lineNumber == 0 { throw SessionReadError(source: source, line: 0, problem: .empty) }
    }

    /// Checks an event already decoded (an in-memory ``Session``'s) against the rules between lines, as its own
    /// next line. An action's ``ActionEvent/state`` is taken as it is, patch or not: in memory it is the truth.
    /// - Throws: ``SessionReadError`` at this line when the event breaks the order of a session.
    mutating func admit(_ event: SessionEvent) throws(SessionReadError) {
        lineNumber += 1
        _ = try admitDecoded(event, resolvingPatches: false)
    }

    /// The rules between lines, for an event decoded from line ``lineNumber``; `unbuiltState` is the line's state
    /// when its event holds a placeholder for it.
    private mutating func admitDecoded(
        _ event: SessionEvent, resolvingPatches: Bool = true, unbuiltState: PatchBase? = nil
    ) throws(SessionReadError) -> SessionEvent {
        if case .header(let found) = event {
            return try admitHeader(found)
        }
        if case .notYet = header {
            header = .unknown
            base = .unknown
            covered = .atLeast(0)
            throw refusal(.missingHeader(foundKind: event.kind.rawValue))
        }
        if let problem = effectLines.admit(event, covered: covered.number) {
            throw refusal(.effectLine(problem))
        }
        switch event {
        case .header, .call, .effectEnd, .note:
            return event
        case .end(let end):
            hasSeenEnd = true
            if case .exactly(let last) = covered, end.actions > last {
                throw refusal(.invalidEvent(Self.endCountingMissingActions(end.actions, covered: last)))
            }
            return event
        case .gap(let gap):
            let before = covered
            covered = .exactly(max(before.number, gap.lastSequence))
            base = .afterGap
            guard startsRightAfter(before, gap.firstSequence) else {
                throw refusal(
                    .gapNotContiguous(first: gap.firstSequence, last: gap.lastSequence, covered: before.number))
            }
            return event
        case .action(var action):
            let before = covered
            covered = .exactly(max(before.number, action.sequence))
            let problem = resolvingPatches ? resolveState(of: &action, unbuilt: unbuiltState) : keepState(of: action)
            if case .exactly(let last) = before, action.sequence > last + 1 {
                throw refusal(.sequenceSkipped(sequence: action.sequence, covered: last))
            }
            if action.sequence <= before.number {
                throw refusal(.sequenceNotIncreasing(sequence: action.sequence, covered: before.number))
            }
            if let problem { throw refusal(problem) }
            return .action(action)
        }
    }

    private mutating func admitHeader(_ found: SessionHeader) throws(SessionReadError) -> SessionEvent {
        switch header {
        case .seen:
            throw refusal(.duplicateHeader)  // The session goes on as the first header set it.
        case .unknown:
            header = .seen  // The first line was refused already; this one is taken as the header it lacked.
            base = .known(found.initialState)
            effectLines = EffectLineOrder(formatVersion: found.formatVersion)
        case .notYet:
            header = .seen
            base = .known(found.initialState)
            effectLines = EffectLineOrder(formatVersion: found.formatVersion)
            guard SessionFormat.readableVersions.contains(found.formatVersion) else {
                throw refusal(.unsupportedFormat(found.formatVersion))
            }
        }
        return .header(found)
    }

    /// Applies a patch line to the state before it; sets the base the next line applies to (`unbuilt`, when the
    /// line's state was left unbuilt).
    /// - Returns: What is wrong with the patch, if anything.
    private mutating func resolveState(of action: inout ActionEvent, unbuilt: PatchBase?) -> SessionReadError.Problem? {
        guard let patch = action.patch else {
            base = unbuilt ?? .known(action.state)
            return nil
        }
        let previous: JSONValue
        switch base {
        case .unknown:
            return nil
        case .afterGap:
            base = .unknown
            return .invalidEvent(
                SessionEventDecodingError(
                    path: "patch",
                    message: "has no state to apply to: a gap came before it (after a gap a line holds a full 'state')"))
        case .known(let state):
            previous = state
        case .unbuilt(let line, let range):
            do {
                previous = try JSONParser().parse(line[range], memory: &parserMemory)
            } catch {
                base = .unknown
                return .invalidEvent(
                    SessionEventDecodingError(path: "patch", message: "applies to a state that does not parse: \(error)"))
            }
        }
        do {
            action.state = try patch.apply(to: previous)
            base = .known(action.state)
            return nil
        } catch {
            base = .unknown
            return .invalidEvent(
                SessionEventDecodingError(
                    path: "patch[\(error.operationIndex)]",
                    message: "(\(error.operation)) does not apply to the state before it: \(error.reasonDescription)"))
        }
    }

    /// Takes an in-memory action's state as the base the next line applies to.
    private mutating func keepState(of action: ActionEvent) -> SessionReadError.Problem? {
        base = .known(action.state)
        return nil
    }

    /// The problem with an `end` that counts `actions`, more than the `covered` sequence numbers before it: the
    /// actions past them have no line, not even a gap, so they would be lost without a word.
    private static func endCountingMissingActions(_ actions: Int, covered: Int) -> SessionEventDecodingError {
        let missing = SessionReadError.range(covered + 1, actions)
        return SessionEventDecodingError(
            path: "actions",
            message: "is \(actions), but the lines before it cover sequence numbers up to \(covered): \(missing) "
                + "\(actions == covered + 1 ? "has" : "have") no action or 'gap' line")
    }

    private func startsRightAfter(_ covered: Covered, _ sequence: Int) -> Bool {
        switch covered {
        case .exactly(let last): sequence == last + 1
        case .atLeast(let last): sequence > last
        }
    }

    /// A line that did not decode: what it held, and so the state after it and the numbers it covers, is unknown.
    private mutating func refuseUnreadableLine(_ problem: SessionReadError.Problem) -> SessionReadError {
        if case .notYet = header { header = .unknown }
        base = .unknown
        covered = .atLeast(covered.number)
        return refusal(problem)
    }

    private func refusal(_ problem: SessionReadError.Problem) -> SessionReadError {
        SessionReadError(source: source, line: lineNumber, problem: problem)
    }
}
