import StoreKitCore

/// What `replay-cli` asks a replay host to do: check the sessions it names, or work on the session on its standard
/// input.
public struct ReplayHostRequest: Sendable, Equatable {
    /// The kinds of work a host does.
    public enum Command: String, Sendable, CaseIterable {
        /// Check each session of ``ReplayHostRequest/sessions``: that every recorded value still decodes (a
        /// ``SchemaDrift``), the replay and its report (a ``ReplayReport``, with the actions before each
        /// divergence), from one reading of the session; the sessions are checked ``ReplayHostRequest/jobs`` at
        /// a time, and a `result` (or `error`) line is sent for each as it is done.
        case check
        /// Replay and send back the session with the replayed states (a golden update).
        case rerecord
        /// Replay without comparing: send each step's replayed state as it is computed (a `state` line after each
        /// `step` line), so that a caller gets the current reducers' states of any sequence of actions, and every
        /// state before a step whose reducer crashes (`replay-cli minimize`, `--determinism`).
        case states
    }

    /// The work.
    public var command: Command
    /// For `check`: list every diverging step instead of stopping at the first.
    public var findAllDivergences: Bool
    /// For `check`: stop after this step.
    public var lastStep: Int?
    /// For `check`: how many actions before each divergence the report carries.
    public var contextActions: Int
    /// For `check`: the places whose values do not count (``ReplayEngine/Options/ignoring``).
    public var ignoring: [JSONPathPattern]
    /// For `rerecord`: write a session of another schema version back migrated to the store's
    /// (``ReplayEngine/rerecord(_:migrating:)``).
    public var migrating: Bool
    /// For `check`: the session files, which the host opens itself (absolute paths: the host runs in its own
    /// directory).
    public var sessions: [String]
    /// For `check`: how many sessions are checked at once, each on its own thread.
    public var jobs: Int
    /// The ``ProgressBoard`` file (with a slot for each of ``jobs``, one for `states` and `rerecord`), where the host
    /// shows the step it is replaying; `nil` for none.
    public var progress: String?

    /// Creates a request.
    public init(
        command: Command, findAllDivergences: Bool = false, lastStep: Int? = nil, contextActions: Int = 0,
        ignoring: [JSONPathPattern] = [], migrating: Bool = false, sessions: [String] = [], jobs: Int = 1,
        progress: String? = nil
    ) {
        self.command = command
        self.findAllDivergences = findAllDivergences
        self.lastStep = lastStep
        self.contextActions = contextActions
        self.ignoring = ignoring
        self.migrating = migrating
        self.sessions = sessions
        self.jobs = max(1, jobs)
        self.progress = progress
    }

    /// The request as the JSON passed after `--request`.
    public var jsonValue: JSONValue {
        .object([
            "protocol": .integer(Int64(ReplayHost.protocolVersion)), "command": .string(command.rawValue),
            "findAll": .bool(findAllDivergences), "lastStep": lastStep.map { .integer(Int64($0)) } ?? .null,
            "context": .integer(Int64(contextActions)), "ignore": .array(ignoring.map { .string($0.text) }),
            "migrate": .bool(migrating), "sessions": .array(sessions.map(JSONValue.string)),
            "jobs": .integer(Int64(jobs)), "progress": progress.map(JSONValue.string) ?? .null,
        ])
    }

    /// Reads a request; `nil` when it is not one this host understands.
    /// - Throws: ``JSONPathPatternError`` when a pattern in `ignore` does not parse.
    public init?(jsonValue: JSONValue) throws(JSONPathPatternError) {
        guard jsonValue["protocol"]?.integerValue == Int64(ReplayHost.protocolVersion),
            let command = jsonValue["command"]?.stringValue.flatMap(Command.init(rawValue:))
        else { return nil }
        self.command = command
        self.findAllDivergences = jsonValue["findAll"] == .bool(true)
        self.lastStep = jsonValue["lastStep"]?.integerValue.map { Int($0) }
        self.contextActions = Int(max(0, jsonValue["context"]?.integerValue ?? 0))
        var ignoring: [JSONPathPattern] = []
        for pattern in jsonValue["ignore"]?.arrayValue ?? [] {
            guard let text = pattern.stringValue else { return nil }
            ignoring.append(try JSONPathPattern(text))
        }
        self.ignoring = ignoring
        self.migrating = jsonValue["migrate"] == .bool(true)
        var sessions: [String] = []
        for session in jsonValue["sessions"]?.arrayValue ?? [] {
            guard let path = session.stringValue else { return nil }
            sessions.append(path)
        }
        self.sessions = sessions
        self.jobs = Int(max(1, jsonValue["jobs"]?.integerValue ?? 1))
        self.progress = jsonValue["progress"]?.stringValue
    }
}
