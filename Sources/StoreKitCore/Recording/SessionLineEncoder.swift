import Foundation
import StoreKitJSON
import StoreKitSystem

/// Turns what a recorder records into session lines: the header, an `action` line (its secrets replaced, its state
/// in full or, under delta snapshots, as a patch against the previous line's state), or a `gap` line.
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
    private let initialState: State
    private let startedAt: Date
    private let encoder = CanonicalJSONEncoder()
    /// The state encoder's writer, and the parts of the last state encoded when
    /// ``SessionRecorder/Configuration/reusesEncodingOfUnchangedParts`` is on.
    private let stateMemo: EncodingMemo
    /// For delta snapshots: the state of the last line written, and how many lines since the last keyframe.
    private var previousState: JSONValue?
    private var sinceKeyframe = 0

    /// Creates an encoder for the session of `configuration` that started at `startedAt` from `initialState`.
    init(configuration: SessionRecorder<State, Action>.Configuration, initialState: State, startedAt: Date) {
        self.configuration = configuration
        self.initialState = initialState
        self.startedAt = startedAt
        stateMemo = EncodingMemo(reusesUnchangedParts: configuration.reusesEncodingOfUnchangedParts)
    }

    /// The session's header line, its initial state redacted.
    func headerLine() throws -> [UInt8] {
        let header = SessionHeader(
            sessionID: configuration.sessionID, storeID: configuration.storeID, app: configuration.app,
            startedAt: Self.iso8601(startedAt), host: HostInfo.hostName, pid: HostInfo.processID,
            initialState: configuration.redaction.redactingState(try encoder.encode(initialState)),
            metadata: configuration.metadata, redaction: configuration.redaction)
        return SessionEvent.header(header).line
    }

    /// The `action` line of `action` and the `state` after it.
    /// - Parameter encodedState: The state's bytes when they were encoded ahead (never with redaction).
    /// - Throws: The error encoding the action or the state threw (the recorder writes a ``gapLine(_:)`` instead).
    func actionLine(
        sequence: Int, time: Double, origin: ActionEvent.Origin, action: Action, state: State,
        encodedState: StateEncodingPool<State>.Encoded?
    ) throws -> ActionLine {
        let name = configuration.actionName?(action) ?? ActionName.of(action)
        let encoded = try encodedAction(action)
        let (snapshot, fullState) = try self.snapshot(of: state, encoded: encodedState?.get())
        var line: [UInt8] = []
        ActionLineWriter.append(
            sequence: sequence, time: time, name: name, action: encoded, origin: origin, snapshot: snapshot,
            to: &line)
        var content = UnconfirmedLines.Entry.Content.state
        if case .patch = snapshot {
            var fullStateLine: [UInt8] = []
            ActionLineWriter.append(
                sequence: sequence, time: time, name: name, action: encoded, origin: origin,
                snapshot: .state(fullState), to: &fullStateLine)
            content = .patch(fullStateLine: fullStateLine)
        }
        return ActionLine(
            entry: UnconfirmedLines.Entry(sequences: sequence...sequence, bytes: line, content: content),
            encodedBytes: encoded.count + fullState.count)
    }

    /// The `gap` line of `gap`; the next line carries a full state.
    func gapLine(_ gap: GapEvent) -> UnconfirmedLines.Entry {
        previousState = nil
        return UnconfirmedLines.Entry(
            sequences: gap.firstSequence...gap.lastSequence, bytes: SessionEvent.gap(gap).line, content: .gap(gap))
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
        guard !redaction.actionPaths.isEmpty else { return try encoder.encodeToBytes(action) }
        return redaction.redactingAction(try encoder.encode(action)).canonicalBytes()
    }

    private static func iso8601(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}
