import Foundation
import StoreKitJSON
import StoreKitSystem

/// Turns what a recorder records into session lines: the header, an `action` line (its secrets replaced, its state
/// in full or, under delta snapshots, as a patch against the previous action line's state), a `gap` line, or an
/// effect's `call` (its secrets replaced) or `effectEnd` line, or a `note` (its secrets replaced), which leave the
/// state a patch applies to alone.
///
/// Used by one ``RecorderWorker`` on its thread. It remembers the state of the last line for the next patch; after
/// a gap, or when the lines before may be lost, ``forgetPreviousState()`` makes the next line carry a full state.
final class SessionLineEncoder<State: Encodable & Sendable, Action: Encodable & Sendable> {
    /// An action line and what it cost to encode.
    struct ActionLine {
        /// The line, as the unconfirmed buffer holds it (with its full-state form when it carries a patch).
        var entry: UnconfirmedLines.Entry
        /// The encoded size of the action and its full state.
        var encodedBytes: Int
    }

    private let configuration: SessionRecorder<State, Action>.Configuration
    /// The store's replayable effects, for the header (format 2 when there are any).
    private let replayableEffects: [String]
    private let initialState: State
    private let startedAt: Date
    /// The app the header names: the configuration's, with the commit of the checkout the running executable lives
    /// in when the configuration gave none, looked up once, on the recorder's thread, by the first header.
    private lazy var app: AppInfo = {
        var app = configuration.app
        if app.commit.isEmpty { app.commit = GitCheckout.commitOfRunningExecutable() }
        return app
    }()
    private let encoder = CanonicalJSONEncoder()
    /// Names the actions, looking into each action type once.
    private let actionNames = ActionNameCache()
    /// The action encoder's writer, kept from action to action (with what it learned of their types).
    private let actionMemo = EncodingMemo(reuse: .never)
    /// The state encoder's writer, and the parts of the last state encoded, copied when unchanged: those proven to
    /// hold values only, or every part with ``SessionRecorder/Configuration/reusesEncodingOfUnchangedParts``.
    private let stateMemo: EncodingMemo
    /// For delta snapshots: the state of the last line written, and how many lines since the last keyframe.
    private var previousState: JSONValue?
    private var sinceKeyframe = 0
    /// The last sequence number an action or gap line covered: where an effect line is held.
    private var covered = 0
    /// The effect runs that lost a line with the transport: their later lines are not written, so that no run the
    /// session holds skips a call.
    private var runsMissingLines: Set<EffectRunKey> = []
    /// The header line, once made: every restart and every journal segment sends the same one.
    private var header: [UInt8]?

    /// Creates an encoder for the session of `configuration` that started at `startedAt` from `initialState`, of a
    /// store whose replayable effects are `replayableEffects`.
    init(
        configuration: SessionRecorder<State, Action>.Configuration, initialState: State, startedAt: Date,
        replayableEffects: [String]
    ) {
        self.configuration = configuration
        self.replayableEffects = replayableEffects
        self.initialState = initialState
        self.startedAt = startedAt
        stateMemo = EncodingMemo(reuse: configuration.reusesEncodingOfUnchangedParts ? .everyPart : .provenValueParts)
    }

    /// The session's header line, its initial state redacted, with the state's type notes (where its JSON holds
    /// dates, durations, keyed pairs, sets and elements identified by another member than `id`): made once per
    /// recording, by the first call.
    func headerLine() throws -> [UInt8] {
        if let header { return header }
        var typeNotes = EncodedTypeNotes()
        let initialState = try JSONValue(parsing: try encoder.encodeToBytes(initialState, typeNotes: &typeNotes))
        var header = SessionHeader(
            sessionID: configuration.sessionID, storeID: configuration.storeID, app: app,
            startedAt: Self.iso8601(startedAt), host: HostInfo.hostName, pid: HostInfo.processID,
            initialState: configuration.redaction.redactingState(initialState), metadata: configuration.metadata,
            redaction: configuration.redaction, effects: replayableEffects, typeNotes: typeNotes)
        header.formatVersion = SessionFormat.version(
            replayableEffects: replayableEffects, recordsNotes: configuration.recordsNotes)
        let line = SessionEvent.header(header).line
        self.header = line
        return line
    }

    /// The `action` line of `action` and the `state` after it.
    /// - Parameters:
    ///   - effect: The name of the effect that sent the action, in a format 2 session.
    ///   - encodedState: The state's bytes when they were encoded ahead (never with redaction).
    /// - Throws: The error encoding the action or the state threw (the recorder writes a ``gapLine(_:)`` instead).
    func actionLine(
        sequence: Int, time: Double, origin: ActionEvent.Origin, effect: String?, action: Action, state: State,
        encodedState: StateEncodingPool<State>.Encoded?
    ) throws -> ActionLine {
        covered = sequence
        let name = configuration.actionName?(action) ?? actionNames.name(of: action)
        let encoded = try encodedAction(action)
        let (snapshot, fullState) = try self.snapshot(of: state, encoded: encodedState?.get())
        let line = ActionLineWriter.line(
            sequence: sequence, time: time, name: name, action: encoded, origin: origin, effect: effect,
            snapshot: snapshot)
        var content = UnconfirmedLines.Entry.Content.state
        if case .patch = snapshot {
            content = .patch(
                fullStateLine: ActionLineWriter.line(
                    sequence: sequence, time: time, name: name, action: encoded, origin: origin, effect: effect,
                    snapshot: .state(fullState)))
        }
        return ActionLine(
            entry: UnconfirmedLines.Entry(sequences: sequence...sequence, bytes: line, content: content),
            encodedBytes: encoded.count + fullState.count)
    }

    /// The `gap` line of `gap`; the next line carries a full state.
    func gapLine(_ gap: GapEvent) -> UnconfirmedLines.Entry {
        previousState = nil
        covered = max(covered, gap.lastSequence)
        return UnconfirmedLines.Entry(
            sequences: gap.firstSequence...gap.lastSequence, bytes: SessionEvent.gap(gap).line, content: .gap(gap))
    }

    /// An action kept without its state, its secrets replaced, for a `gap` that keeps its actions
    /// (``keptActionsLine(_:)``), and the bytes of its encoded action.
    /// - Throws: The error encoding the action threw (the recorder writes an `encodingFailed` gap for it instead).
    func keptAction(
        sequence: Int, time: Double, origin: ActionEvent.Origin, effect: String?, action: Action
    ) throws -> (event: ActionEvent, encodedBytes: Int) {
        let name = configuration.actionName?(action) ?? actionNames.name(of: action)
        let encoded = try encodedAction(action)
        let event = ActionEvent(
            sequence: sequence, time: time, name: name, action: try JSONValue(parsing: encoded), origin: origin,
            state: .null, effect: effect)
        return (event, encoded.count)
    }

    /// The `bufferFull` gap line that keeps `actions` (from ``keptAction(sequence:time:origin:effect:action:)``,
    /// numbered one after another); the next line carries a full state.
    func keptActionsLine(_ actions: [ActionEvent]) -> UnconfirmedLines.Entry {
        let first = actions[0].sequence
        let last = actions[actions.count - 1].sequence
        previousState = nil
        covered = max(covered, last)
        let gap = GapEvent(firstSequence: first, lastSequence: last, reason: .bufferFull, actions: actions)
        return UnconfirmedLines.Entry(sequences: first...last, bytes: SessionEvent.gap(gap).line, content: .keptActions)
    }

    /// The `call` line of `call`, its secrets replaced; `nil` when its run lost a line before.
    func callLine(_ call: EffectCallEvent) -> UnconfirmedLines.Entry? {
        let redacted = configuration.redaction.callPaths.isEmpty ? call : configuration.redaction.redactingCall(call)
        return effectLine(.call(redacted), run: EffectRunKey(cause: call.cause, effect: call.effect), endsRun: false)
    }

    /// The `effectEnd` line of `end`; `nil` when its run lost a line before.
    func effectEndLine(_ end: EffectEndEvent) -> UnconfirmedLines.Entry? {
        effectLine(.effectEnd(end), run: EffectRunKey(cause: end.cause, effect: end.effect), endsRun: true)
    }

    /// The `note` line of `note`, its secrets replaced, held at the last sequence number covered like an effect
    /// line.
    func noteLine(_ note: NoteEvent) -> UnconfirmedLines.Entry {
        let redacted = configuration.redaction.notePaths.isEmpty ? note : configuration.redaction.redactingNote(note)
        return UnconfirmedLines.Entry(sequences: covered...covered, bytes: SessionEvent.note(redacted).line, content: .note)
    }

    /// Leaves out the later lines of the runs (cause, effect) that lost a line with the transport.
    func forgetRuns(_ runs: [(cause: Int, effect: String)]) {
        for run in runs { runsMissingLines.insert(EffectRunKey(cause: run.cause, effect: run.effect)) }
    }

    private func effectLine(_ event: SessionEvent, run: EffectRunKey, endsRun: Bool) -> UnconfirmedLines.Entry? {
        if runsMissingLines.contains(run) {
            if endsRun { runsMissingLines.remove(run) }
            return nil
        }
        return UnconfirmedLines.Entry(
            sequences: covered...covered, bytes: event.line, content: .effect(cause: run.cause, effect: run.effect))
    }

    /// Makes the next action line carry a full state, for a receiver that may have lost the lines before it.
    func forgetPreviousState() {
        previousState = nil
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
        guard !redaction.actionPaths.isEmpty else { return try encoder.encodeToBytes(action, reusing: actionMemo) }
        return redaction.redactingAction(try encoder.encode(action)).canonicalBytes()
    }

    private static func iso8601(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}
