import StoreKitCore
import StoreKitJSON

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
        /// step), so that a caller gets the current reducers' states of any sequence of actions, and every
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
    /// For `check`: which member identifies the elements of which arrays (``ReplayEngine/Options/identity``).
    public var identity: [IdentityKey]
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
        ignoring: [JSONPathPattern] = [], identity: [IdentityKey] = [], migrating: Bool = false, sessions: [String] = [],
        jobs: Int = 1, progress: String? = nil
    ) {
        self.command = command
        self.findAllDivergences = findAllDivergences
        self.lastStep = lastStep
        self.contextActions = contextActions
        self.ignoring = ignoring
        self.identity = identity
        self.migrating = migrating
        self.sessions = sessions
        self.jobs = max(1, jobs)
        self.progress = progress
    }

    /// The request as the JSON passed after `--request` (see ``encode(to:)``).
    public var jsonValue: JSONValue {
        do {
            return try CanonicalJSONEncoder().encode(self)
        } catch {
            // Every field is a Boolean, an integer, a string, an array of strings or an object of strings, which
            // always encode.
            preconditionFailure("a replay-host request did not encode: \(error)")
        }
    }

    /// Reads a request; `nil` when it is not one this host understands (see ``init(from:)``).
    /// - Throws: ``JSONPathPatternError`` when a pattern in `ignore` does not parse.
    public init?(jsonValue: JSONValue) throws(JSONPathPatternError) {
        do {
            self = try Self(json: jsonValue)
        } catch {
            guard case .pattern(let error) = error else { return nil }
            throw error
        }
    }

    /// Why a request does not read: a pattern of `ignore`, or anything else about the protocol.
    package enum ReadError: Error {
        /// A pattern in `ignore` does not parse.
        case pattern(JSONPathPatternError)
        /// The `identity` field is not an object from path patterns to member names.
        case identity(IdentityKey.FormError)
        /// The request is not one of this protocol version (another version, an unknown command, a field that
        /// does not fit), quoting the request.
        case protocolError(HostProtocolError)
    }

    /// Reads the request in `json`, as the host reads the argument after `--request`.
    /// - Throws: ``ReadError``.
    package init(json: JSONValue) throws(ReadError) {
        do {
            self = try JSONValueDecoder().decode(ReplayHostRequest.self, from: json)
        } catch let error as JSONPathPatternError {
            throw .pattern(error)
        } catch let error as IdentityKey.FormError {
            throw .identity(error)
        } catch let problem as HostProtocolError.Problem {
            throw .protocolError(HostProtocolError(problem, line: json.canonicalBytes()))
        } catch {
            throw .protocolError(HostProtocolError(.malformed(kind: "request", error: error), line: json.canonicalBytes()))
        }
    }
}

extension ReplayHostRequest: Codable {
    /// Every field of a request: the one list both ends read and write.
    private enum Key: String, CodingKey {
        case `protocol`, command, findAll, lastStep, context, ignore, identity, migrate, sessions, jobs, progress
    }

    /// Reads a request of this protocol version; absent fields take their defaults (`findAll` and `migrate` false,
    /// `lastStep` and `progress` none, `context` 0, `ignore`, `identity` and `sessions` empty, `jobs` 1).
    /// - Throws: ``HostProtocolError/Problem/unsupportedVersion(_:)`` for another `protocol`,
    ///   ``HostProtocolError/Problem/unknownCommand(_:)``, ``JSONPathPatternError`` for a pattern of `ignore` that
    ///   does not parse, ``IdentityKey/FormError`` for an `identity` that is not an object from patterns to member
    ///   names, or the `DecodingError` of a field that does not fit.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        _ = try HostProtocolVersion(from: container, forKey: .protocol)
        let commandName = try container.decode(String.self, forKey: .command)
        guard let command = Command(rawValue: commandName) else { throw HostProtocolError.Problem.unknownCommand(commandName) }
        self.command = command
        findAllDivergences = try container.decodeIfPresent(Bool.self, forKey: .findAll) ?? false
        lastStep = try container.decodeIfPresent(Int.self, forKey: .lastStep)
        contextActions = max(0, try container.decodeIfPresent(Int.self, forKey: .context) ?? 0)
        ignoring = try (container.decodeIfPresent([String].self, forKey: .ignore) ?? []).map { text throws(JSONPathPatternError) in
            try JSONPathPattern(text)
        }
        identity = try [IdentityKey](jsonValue: try container.decodeIfPresent(JSONValue.self, forKey: .identity) ?? .object([:]))
        migrating = try container.decodeIfPresent(Bool.self, forKey: .migrate) ?? false
        sessions = try container.decodeIfPresent([String].self, forKey: .sessions) ?? []
        jobs = max(1, try container.decodeIfPresent(Int.self, forKey: .jobs) ?? 1)
        progress = try container.decodeIfPresent(String.self, forKey: .progress)
    }

    /// Writes every field, `lastStep` and `progress` as `null` when there are none, and `protocol` as
    /// ``ReplayHost/protocolVersion``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(HostProtocolVersion(), forKey: .protocol)
        try container.encode(command.rawValue, forKey: .command)
        try container.encode(findAllDivergences, forKey: .findAll)
        if let lastStep { try container.encode(lastStep, forKey: .lastStep) } else { try container.encodeNil(forKey: .lastStep) }
        try container.encode(contextActions, forKey: .context)
        try container.encode(ignoring.map(\.text), forKey: .ignore)
        try container.encode(identity.jsonValue, forKey: .identity)
        try container.encode(migrating, forKey: .migrate)
        try container.encode(sessions, forKey: .sessions)
        try container.encode(jobs, forKey: .jobs)
        if let progress { try container.encode(progress, forKey: .progress) } else { try container.encodeNil(forKey: .progress) }
    }
}
