import StoreKitCore

/// A store the replay engine can rerun: its id, its state and action types, and its current reducer.
///
/// ```swift
/// let todos = ReplayableStore(id: "todos", reducer: TodoFeature.reducer)
/// let report = try ReplayEngine(stores: [todos]).replay(path: "todos-basic.jsonl")
/// ```
public struct ReplayableStore: Sendable {
    /// The store id sessions name in their header (`storeId`).
    public let id: String
    /// Makes a replayer for one session, masking the paths its header says were redacted.
    let makeReplayer: @Sendable (Redaction) -> any StateReplayer

    /// Describes a replayable store.
    /// - Parameters:
    ///   - id: The id recorded sessions carry in their header.
    ///   - reducer: The reducer to rerun the actions through.
    public init<State: Codable & Equatable & Sendable, Action: Codable & Sendable>(
        id: String, reducer: Reducer<State, Action>
    ) {
        self.id = id
        self.makeReplayer = { redaction in TypedStateReplayer(reducer: reducer, redaction: redaction) }
    }
}

/// The outcome of comparing the replayed state with a recorded one.
enum StateComparison {
    /// Equal bytes, or unequal bytes whose decoded states are `==`.
    case equal
    /// A real difference: the replayed state as canonical JSON, and where the state type holds dictionaries
    /// written as keyed pairs, dates and durations, which the diff compares and shows as such.
    case different(replayed: JSONValue, typeNotes: EncodedTypeNotes)
}

/// A failure to decode or encode something during replay: which part, its JSON path, and what went wrong.
struct ReplayStepFailure: Error {
    var part: Undecodable.Part
    var path: String
    var message: String
}

/// Replays one session for one store type; created fresh per session.
protocol StateReplayer: AnyObject {
    /// Sets the state from recorded JSON (the initial state, or a resync after a gap).
    func load(_ recorded: JSONValue, as part: Undecodable.Part) throws(ReplayStepFailure)
    /// Decodes the action and runs the reducer.
    func apply(_ action: JSONValue) throws(ReplayStepFailure)
    /// Compares the current state with a recorded one.
    func compare(with recorded: JSONValue) throws(ReplayStepFailure) -> StateComparison
    /// The current state as canonical JSON, with the session's redacted paths masked.
    func currentState() throws(ReplayStepFailure) -> JSONValue
    /// Checks that a recorded value still decodes as the part it is, without touching the replay state.
    func checkDecodes(_ value: JSONValue, as part: Undecodable.Part) throws(ReplayStepFailure)
}

/// The typed replayer behind ``ReplayableStore``.
final class TypedStateReplayer<State: Codable & Equatable & Sendable, Action: Codable & Sendable>: StateReplayer {
    private let reducer: Reducer<State, Action>
    private let redaction: Redaction
    private let encoder = CanonicalJSONEncoder()
    private let decoder = JSONValueDecoder()
    /// Keeps the encoder's writer from one step to the next; every state is still encoded in full.
    private let writer = EncodingMemo(reusesUnchangedParts: false, notesDatesAndDurations: true)
    private var state: State?

    init(reducer: Reducer<State, Action>, redaction: Redaction) {
        self.reducer = reducer
        self.redaction = redaction
    }

    func load(_ recorded: JSONValue, as part: Undecodable.Part) throws(ReplayStepFailure) {
        state = try decode(State.self, from: recorded, part: part)
    }

    func apply(_ action: JSONValue) throws(ReplayStepFailure) {
        let decoded = try decode(Action.self, from: action, part: .action)
        reducer.reduce(&state!, decoded)
    }

    func compare(with recorded: JSONValue) throws(ReplayStepFailure) -> StateComparison {
        let replayed = try currentState()
        if replayed == recorded { return .equal }
        let recordedState = try decode(State.self, from: recorded, part: .recordedState)
        // With secrets, compare what was recorded with the replayed state as it would have been recorded; a
        // replayed state that no longer decodes once masked is its own verdict, not a difference.
        let comparable = redaction.statePaths.isEmpty ? state! : try decodeMasked(replayed)
        return recordedState == comparable
            ? .equal : .different(replayed: replayed, typeNotes: writer.typeNotes)
    }

    /// The replayed state read back after its redacted paths were masked.
    /// - Throws: A failure of part ``Undecodable/Part/replayedState`` with the decoder's path and message.
    private func decodeMasked(_ replayed: JSONValue) throws(ReplayStepFailure) -> State {
        do {
            return try decode(State.self, from: replayed, part: .replayedState)
        } catch {
            throw ReplayStepFailure(
                part: .replayedState, path: error.path,
                message: "with its redacted paths masked, it does not decode: \(error.message)")
        }
    }

    func currentState() throws(ReplayStepFailure) -> JSONValue {
        do {
            // Written as canonical bytes and read back: several times faster than building the tree while
            // encoding, and the result has exactly the shape the reader gives the recorded state.
            let bytes = try encoder.encodeToBytes(state!, reusing: writer)
            return redaction.redactingState(try JSONValue(parsing: bytes))
        } catch let error as JSONParseError {
            throw ReplayStepFailure(part: .replayedState, path: "", message: "\(error)")
        } catch let error as EncodingError {
            throw ReplayStepFailure(part: .replayedState, path: error.jsonPath, message: error.summary)
        } catch {
            throw ReplayStepFailure(part: .replayedState, path: "", message: "\(error)")
        }
    }

    func checkDecodes(_ value: JSONValue, as part: Undecodable.Part) throws(ReplayStepFailure) {
        if part == .action {
            _ = try decode(Action.self, from: value, part: part)
        } else {
            _ = try decode(State.self, from: value, part: part)
        }
    }

    private func decode<T: Decodable>(_ type: T.Type, from json: JSONValue, part: Undecodable.Part)
        throws(ReplayStepFailure) -> T
    {
        do {
            return try decoder.decode(type, from: json)
        } catch let error as DecodingError {
            throw ReplayStepFailure(part: part, path: error.jsonPath, message: error.summary)
        } catch {
            throw ReplayStepFailure(part: part, path: "", message: "\(error)")
        }
    }
}
