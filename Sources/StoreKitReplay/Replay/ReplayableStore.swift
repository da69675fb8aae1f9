import StoreKitCore
import StoreKitJSON
import StoreKitSystem

/// A store the replay engine can rerun: its id, its state and action types, and its current reducer; and, as the
/// app evolves, its schema version with a migration that brings older sessions' JSON up to date.
///
/// ```swift
/// let todos = ReplayableStore(id: "todos", reducer: TodoFeature.reducer)
/// let report = try ReplayEngine(stores: [todos]).replay(path: "todos-basic.jsonl")
/// ```
///
/// When a state gains a field or a case is renamed, sessions recorded before no longer decode. Declare the store's
/// current schema version (the one the app records in ``AppInfo/schemaVersion``) and a migration: a function from
/// a session's schema version and a recorded value (a state or an action, as JSON) to the value as the current types
/// read it. It runs before decoding, on the initial state, every action and every recorded state of each session
/// whose schema version differs from the store's (`docs/migrations.md`):
/// ```swift
/// ReplayableStore(id: "todos", reducer: Todos.reducer, schemaVersion: "3") { version, value in
///     var json = value.json
///     if version == "1", value.kind == .state {
///         json = try json.addingMember("isPaused", default: .bool(false), at: "todos[*]")
///     }
///     if version == "1" || version == "2", value.kind == .action {
///         json = try json.renamingCase("toggle", to: "toggleCompleted")
///     }
///     return json
/// }
/// ```
public struct ReplayableStore: Sendable {
    /// A recorded value on its way to a migration.
    public struct MigratedValue: Sendable, Equatable {
        /// What the value is.
        public enum Kind: Sendable, Equatable {
            /// A state: the initial state or a state recorded after an action.
            case state
            /// An action.
            case action
        }

        /// Whether the value is a state or an action.
        public var kind: Kind
        /// The value as the session holds it.
        public var json: JSONValue

        /// Creates one.
        public init(kind: Kind, json: JSONValue) {
            self.kind = kind
            self.json = json
        }
    }

    /// A migration: from a session's schema version and a recorded value to the value the current types decode.
    public typealias Migration = @Sendable (_ schemaVersion: String, _ value: MigratedValue) throws -> JSONValue

    /// The store id sessions name in their header (`storeId`).
    public let id: String
    /// The schema version of the current types; `nil` when the store declares none (and has no migration).
    public let schemaVersion: String?
    /// Brings a recorded value of an older schema version up to date.
    let migration: Migration?
    /// The names of the store's replayable effects (``EffectReplay/rerun``), which replay reruns.
    public let replayableEffects: [String]
    /// Makes a replayer for one session (its header), masking the paths the header says were redacted and migrating
    /// its values when told.
    let makeReplayer: @Sendable (SessionHeader, SessionMigration?) -> any StateReplayer

    /// Describes a replayable store.
    /// - Parameters:
    ///   - id: The id recorded sessions carry in their header.
    ///   - reducer: The reducer to rerun the actions through.
    ///   - effects: The store's effects, as the app registers them; replay reruns the replayable ones
    ///     (``EffectReplay/rerun``) against their recorded inputs and compares what they send.
    ///   - reusesEncodingOfUnchangedParts: Whether every part of a replayed state that is unchanged since the step
    ///     before (the same bits: the same numbers and the same copy-on-write storage) is written from that step's
    ///     bytes instead of encoded again, as the recorder's option of the same name does. By default only the
    ///     parts whose type is proven to hold values only are (structs, enums, strings and standard collections of
    ///     them, all the way down), which is always right and several times cheaper for a large state of which
    ///     each action changes a little. Every part when on: bits cannot show a class instance changed in place,
    ///     which would then be compared as it was, so turn it on only for states made of value types.
    public init<State: Codable & Equatable & Sendable, Action: Codable & Sendable>(
        id: String, reducer: Reducer<State, Action>, effects: [Effect<State, Action>] = [],
        reusesEncodingOfUnchangedParts: Bool = false
    ) {
        self.id = id
        self.schemaVersion = nil
        self.migration = nil
        let effects = Self.replayable(effects)
        self.replayableEffects = effects.map(\.name)
        self.makeReplayer = { header, migration in
            TypedStateReplayer(
                reducer: reducer, header: header, migration: migration, effects: effects,
                reusesEncodingOfUnchangedParts: reusesEncodingOfUnchangedParts)
        }
    }

    /// Describes a replayable store whose types have changed since some sessions were recorded.
    /// - Parameters:
    ///   - id: The id recorded sessions carry in their header.
    ///   - reducer: The reducer to rerun the actions through.
    ///   - schemaVersion: The schema version the app records today (``AppInfo/schemaVersion``).
    ///   - effects: The store's effects; replay reruns the replayable ones.
    ///   - reusesEncodingOfUnchangedParts: Whether every unchanged part of each replayed state is copied from the
    ///     step before, not only those proven to hold values only (see
    ///     ``init(id:reducer:effects:reusesEncodingOfUnchangedParts:)``).
    ///   - migrate: Called before decoding for every state and action of a session recorded under another schema
    ///     version, with that version and the value; returns the value as the current types decode it. A thrown
    ///     error makes the value undecodable, with the error as the reason.
    public init<State: Codable & Equatable & Sendable, Action: Codable & Sendable>(
        id: String, reducer: Reducer<State, Action>, effects: [Effect<State, Action>] = [], schemaVersion: String,
        reusesEncodingOfUnchangedParts: Bool = false, migrate: @escaping Migration
    ) {
        self.id = id
        self.schemaVersion = schemaVersion
        self.migration = migrate
        let effects = Self.replayable(effects)
        self.replayableEffects = effects.map(\.name)
        self.makeReplayer = { header, migration in
            TypedStateReplayer(
                reducer: reducer, header: header, migration: migration, effects: effects,
                reusesEncodingOfUnchangedParts: reusesEncodingOfUnchangedParts)
        }
    }

    /// The replayable effects of `effects`, named as a store names them (a repeated name gets `#2`, `#3` …).
    private static func replayable<State, Action>(_ effects: [Effect<State, Action>]) -> [Effect<State, Action>] {
        Effect.uniquelyNamed(effects).filter { $0.replay == .rerun }
    }

    /// A replayer for the session with `header`, migrating its values when its schema version is not the store's.
    func replayer(for header: SessionHeader) -> any StateReplayer {
        makeReplayer(header, sessionMigration(for: header))
    }

    /// The migration a session with `header` needs, or `nil` when it is recorded under the store's schema version
    /// (or the store declares none).
    func sessionMigration(for header: SessionHeader) -> SessionMigration? {
        guard let schemaVersion, let migration, header.app.schemaVersion != schemaVersion else { return nil }
        return SessionMigration(from: header.app.schemaVersion, to: schemaVersion, migrate: migration)
    }
}

/// The migration of one session: from its schema version to the store's.
struct SessionMigration: Sendable {
    /// The session's schema version.
    var from: String
    /// The store's schema version.
    var to: String
    /// The store's migration.
    var migrate: ReplayableStore.Migration

    /// `value` migrated.
    /// - Throws: A failure of `part` when the migration throws.
    func apply(_ value: JSONValue, as part: Undecodable.Part) throws(ReplayStepFailure) -> JSONValue {
        do {
            return try migrate(from, ReplayableStore.MigratedValue(kind: part == .action ? .action : .state, json: value))
        } catch {
            throw ReplayStepFailure(
                part: part, path: "", message: "the migration from schema '\(from)' to '\(to)' failed: \(error)")
        }
    }
}

/// The outcome of comparing the replayed state with a recorded one.
enum StateComparison {
    /// Equal JSON, or JSON whose decoded states are `==`, once the ignored places hold the recorded values; what
    /// those places held that differed.
    case equal(ignored: [IgnoredDifferences])
    /// A real difference.
    case different(StateDifference)
}

/// A replayed state that differs from the recorded one.
struct StateDifference {
    /// The recorded state, migrated when the session needs it.
    var recorded: JSONValue
    /// The replayed state as canonical JSON, its ignored places holding the recorded values.
    var replayed: JSONValue
    /// Where the state type holds dictionaries written as keyed pairs, dates and durations, which the diff
    /// compares and shows as such.
    var typeNotes: EncodedTypeNotes
    /// The differences at ignored places, left out of the comparison.
    var ignored: [IgnoredDifferences]
    /// Why the states were compared as JSON instead of with the state type's `==`: the replayed state with the
    /// recorded values at its ignored places does not decode.
    var comparedAsJSON: String?
}

/// A failure to decode or encode something during replay: which part, its JSON path, and what went wrong.
struct ReplayStepFailure: Error {
    var part: Undecodable.Part
    var path: String
    var message: String
    /// The action type a ``RegisteredAction`` found no registration for, when that is why decoding failed.
    var unregisteredActionType: UnregisteredActionType? = nil
}

/// Replays one session for one store type; created fresh per session.
protocol StateReplayer: AnyObject {
    /// Sets the state from recorded JSON (the initial state, or a resync after a gap).
    func load(_ recorded: JSONValue, as part: Undecodable.Part) throws(ReplayStepFailure)
    /// Decodes the action and runs the reducer.
    func apply(_ action: JSONValue) throws(ReplayStepFailure)
    /// Whether `recordedBytes`, a recorded state's bytes as its line holds them, are the current state's canonical
    /// encoding, where the recorded state is compared as it is (no migration) with the replayed state as it is (no
    /// masking): the same bytes parse to the same value, so the states are equal and nothing ignored differs, and
    /// the recorded state reads back as the state the replay holds. False where that does not hold.
    func encodes(as recordedBytes: ArraySlice<UInt8>) throws(ReplayStepFailure) -> Bool
    /// Compares the current state with a recorded one, the places `ignoring` names taken from the recorded one.
    func compare(with recorded: JSONValue, ignoring: [JSONPathPattern]) throws(ReplayStepFailure) -> StateComparison
    /// The current state as canonical JSON, with the session's redacted paths masked.
    func currentState() throws(ReplayStepFailure) -> JSONValue
    /// Where the states encoded so far hold dictionaries written as keyed pairs, dates and durations.
    var typeNotes: EncodedTypeNotes { get }
    /// Checks that a recorded value still decodes as the part it is, without touching the replay state (an action
    /// is kept decoded for an ``apply(_:)`` of the same action right after).
    func checkDecodes(_ value: JSONValue, as part: Undecodable.Part) throws(ReplayStepFailure)
    /// A recorded value as the current types read it: migrated when the session needs it, else as it is.
    func migrated(_ value: JSONValue, as part: Undecodable.Part) throws(ReplayStepFailure) -> JSONValue
    /// The rerun of the session's replayable effects, when the store has any the session names and the runtime
    /// can rerun them.
    var effects: (any EffectReplaying)? { get }
}

/// The typed replayer behind ``ReplayableStore``.
final class TypedStateReplayer<State: Codable & Equatable & Sendable, Action: Codable & Sendable>: StateReplayer {
    private let reducer: Reducer<State, Action>
    private let redaction: Redaction
    private let migration: SessionMigration?
    private let encoder = CanonicalJSONEncoder()
    private let decoder = JSONValueDecoder()
    /// Keeps the encoder's writer from one step to the next, and with it, when the store says so, the bytes of the
    /// parts of the last state, which the next copies where they are unchanged.
    private let writer: EncodingMemo
    /// What the parser learned from the replayed states so far.
    private var parserMemory = JSONParserMemory()
    /// The actions decoded last, by their JSON as the current types read it.
    private let decodedActions = RecentDecodings<Action>()
    /// The JSON of the last action ``checkDecodes(_:as:)`` checked, as recorded, and where its decoding is held, for
    /// ``apply(_:)`` of the same action right after.
    private var checkedAction: (json: JSONValue, index: Int)?
    /// The replayed state, once loaded.
    private let state = ValueSlot<State>()
    /// The action the reducer replayed last, for the effects it starts.
    private let appliedAction = ValueSlot<Action>()
    /// The replayed state's canonical bytes, once encoded, until the state changes.
    private var encodedState: [UInt8]?
    /// The replayed state, as the rerun effects read it.
    private let sharedState = Locked<State?>(nil)
    private(set) var effects: (any EffectReplaying)?

    init(
        reducer: Reducer<State, Action>, header: SessionHeader, migration: SessionMigration?,
        effects: [Effect<State, Action>], reusesEncodingOfUnchangedParts: Bool
    ) {
        self.reducer = reducer
        self.writer = EncodingMemo(
            reuse: reusesEncodingOfUnchangedParts ? .everyPart : .provenValueParts, notesForReading: true)
        self.redaction = header.redaction
        self.migration = migration
        let rerun = effects.filter { header.effects.contains($0.name) }
        guard header.formatVersion >= 2, !rerun.isEmpty, #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) else { return }
        let encoder = CanonicalJSONEncoder()
        let redaction = header.redaction
        self.effects = TypedEffectReplayer(
            effects: rerun, state: sharedState, appliedAction: { [weak self] in self?.appliedAction.value },
            encode: { action in redaction.redactingAction((try? encoder.encode(action)) ?? .null) },
            recordedJSON: { [weak self] json in (try? self?.migrated(json, as: .action)) ?? json }, redaction: redaction)
    }

    func migrated(_ value: JSONValue, as part: Undecodable.Part) throws(ReplayStepFailure) -> JSONValue {
        guard let migration else { return value }
        return try migration.apply(value, as: part)
    }

    func load(_ recorded: JSONValue, as part: Undecodable.Part) throws(ReplayStepFailure) {
        state.fill(try decode(State.self, from: try migrated(recorded, as: part), part: part))
        encodedState = nil
        shareState()
    }

    /// Hands the replayed state to the rerun effects, when there are any.
    private func shareState() {
        guard effects != nil else { return }
        let current = state.filled.pointee
        sharedState.withLock { $0 = current }
    }

    func apply(_ action: JSONValue) throws(ReplayStepFailure) {
        let index: Int
        if let checkedAction, checkedAction.json == action {
            index = checkedAction.index
        } else {
            index = try decodedActionIndex(action)
        }
        checkedAction = nil
        let decoded = decodedActions.value(at: index)
        reducer.reduce(&state.filled.pointee, decoded)
        encodedState = nil
        shareState()
        if effects != nil { appliedAction.fill(decoded) }
    }

    func encodes(as recordedBytes: ArraySlice<UInt8>) throws(ReplayStepFailure) -> Bool {
        guard migration == nil, redaction.statePaths.isEmpty else { return false }
        return Self.same(try currentBytes(), recordedBytes)
    }

    func compare(with recorded: JSONValue, ignoring: [JSONPathPattern]) throws(ReplayStepFailure) -> StateComparison {
        let bytes = try currentBytes()
        let recorded = try migrated(recorded, as: .recordedState)
        var replayed = try stateValue(of: bytes)
        var ignored: [IgnoredDifferences] = []
        if !ignoring.isEmpty { (replayed, ignored) = ignoring.overlay(from: recorded, onto: replayed) }
        if replayed == recorded { return .equal(ignored: ignored) }
        let recordedState = try decode(State.self, from: recorded, part: .recordedState)
        var difference = StateDifference(
            recorded: recorded, replayed: replayed, typeNotes: writer.typeNotes, ignored: ignored)
        let comparable: State
        if !ignored.isEmpty {
            // The ignored places changed the replayed JSON: the state type's `==` judges what it decodes to.
            do {
                comparable = try decode(State.self, from: replayed, part: .replayedState)
            } catch {
                difference.comparedAsJSON =
                    "with the recorded values at its ignored places the replayed state does not decode (\(error.path.isEmpty ? "" : "at \(error.path): ")\(error.message)), so the states were compared as JSON"
                let diff = StateDiff(from: recorded, to: replayed, typeNotes: writer.typeNotes)
                return diff.isEmpty ? .equal(ignored: ignored) : .different(difference)
            }
        } else {
            // With secrets, compare what was recorded with the replayed state as it would have been recorded; a
            // replayed state that no longer decodes once masked is its own verdict, not a difference.
            comparable = redaction.statePaths.isEmpty ? state.filled.pointee : try decodeMasked(replayed)
        }
        return recordedState == comparable ? .equal(ignored: ignored) : .different(difference)
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

    var typeNotes: EncodedTypeNotes { writer.typeNotes }

    func currentState() throws(ReplayStepFailure) -> JSONValue {
        try stateValue(of: try currentBytes())
    }

    /// The current state as canonical bytes, unmasked; encoded once until the state changes.
    private func currentBytes() throws(ReplayStepFailure) -> [UInt8] {
        if let encodedState { return encodedState }
        do {
            let bytes = try encoder.encodeToBytes(state.filled.pointee, reusing: writer)
            encodedState = bytes
            return bytes
        } catch let error as EncodingError {
            throw ReplayStepFailure(part: .replayedState, path: error.jsonPath, message: error.summary)
        } catch {
            throw ReplayStepFailure(part: .replayedState, path: "", message: "\(error)")
        }
    }

    /// The state written as `bytes`, read back and masked: reading canonical bytes back is cheaper than building
    /// the tree while encoding (docs/performance.md), and the result has exactly the shape the reader gives the
    /// recorded state.
    private func stateValue(of bytes: [UInt8]) throws(ReplayStepFailure) -> JSONValue {
        do {
            return redaction.redactingState(try JSONParser().parse(bytes, memory: &parserMemory))
        } catch {
            throw ReplayStepFailure(part: .replayedState, path: "", message: "\(error)")
        }
    }

    /// Whether two runs of bytes are the same.
    private static func same(_ bytes: [UInt8], _ other: ArraySlice<UInt8>) -> Bool {
        guard bytes.count == other.count else { return false }
        guard !bytes.isEmpty else { return true }
        return bytes.withUnsafeBytes { left in
            other.withUnsafeBytes { right in memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0 }
        }
    }

    func checkDecodes(_ value: JSONValue, as part: Undecodable.Part) throws(ReplayStepFailure) {
        if part == .action {
            checkedAction = nil
            checkedAction = (value, try decodedActionIndex(value))
        } else {
            _ = try decode(State.self, from: try migrated(value, as: part), part: part)
        }
    }

    /// Where ``decodedActions`` holds the action `recorded` decodes to, once migrated; decoded now unless it was
    /// decoded from the same JSON lately.
    private func decodedActionIndex(_ recorded: JSONValue) throws(ReplayStepFailure) -> Int {
        let json = try migrated(recorded, as: .action)
        return try decodedActions.index(of: json) { () throws(ReplayStepFailure) in
            try decode(Action.self, from: json, part: .action)
        }
    }

    private func decode<T: Decodable>(_ type: T.Type, from json: JSONValue, part: Undecodable.Part)
        throws(ReplayStepFailure) -> T
    {
        do {
            return try decoder.decode(type, from: json)
        } catch let error as DecodingError {
            throw ReplayStepFailure(
                part: part, path: error.jsonPath, message: error.summary,
                unregisteredActionType: error.underlyingError as? UnregisteredActionType)
        } catch {
            throw ReplayStepFailure(part: part, path: "", message: "\(error)")
        }
    }
}

extension DecodingError {
    /// The error the decoding failure wraps, when it wraps one.
    fileprivate var underlyingError: (any Error)? {
        switch self {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
            .dataCorrupted(let context):
            context.underlyingError
        @unknown default:
            nil
        }
    }
}
