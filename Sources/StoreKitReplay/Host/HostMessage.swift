import StoreKitCore
import StoreKitJSON

/// One line a replay host sends `replay-cli` on its standard output (`docs/replay-host-protocol.md`): the host
/// writes it with ``lineBytes()`` and the CLI reads it with ``init(line:)``, through the same coding declarations,
/// so both ends agree on every key.
///
/// The envelope is typed; the big payloads (a replayed state, a session line, a check's header, drift and report)
/// are carried as ``JSONValue``s, as they were built or parsed.
package enum HostMessage: Sendable, Equatable {
    /// Always first, before the request is even parsed: the protocol version (``ReplayHost/protocolVersion``, written
    /// and checked by ``HostProtocolVersion``) and the stores the host can replay, sorted.
    case hello(stores: [String])
    /// For `states`: the state after one replayed action.
    case state(ReplayedState)
    /// For `rerecord`: one line of the updated session (the event as JSON), in order.
    case line(JSONValue)
    /// The answer: for `check` one per session, otherwise last, once.
    case result(Result)
    /// Instead of a `result`, when a session is malformed or the request is not understood.
    case error(Failure)

    /// The `kind` of each message, as the wire spells it.
    package enum Kind: String, Sendable, CaseIterable {
        /// ``HostMessage/hello(stores:)``.
        case hello
        /// ``HostMessage/state(_:)``.
        case state
        /// ``HostMessage/line(_:)``.
        case line
        /// ``HostMessage/result(_:)``.
        case result
        /// ``HostMessage/error(_:)``.
        case error
    }

    /// The state after one replayed action of a `states` request.
    package struct ReplayedState: Sendable, Equatable {
        /// The action's sequence number (`seq`).
        package var seq: Int
        /// The action's display name.
        package var name: String
        /// The replayed state, canonical JSON with redacted paths masked.
        package var state: JSONValue

        /// Creates the message's payload.
        package init(seq: Int, name: String, state: JSONValue) {
            self.seq = seq
            self.name = name
            self.state = state
        }
    }

    /// A `result`: which fields it has depends on the command (see `docs/replay-host-protocol.md`); an absent field
    /// is not written.
    package struct Result: Sendable, Equatable {
        /// `check`: the session's index in the request's `sessions`.
        package var session: Int?
        /// `check`: the session's header line, as JSON.
        package var header: JSONValue?
        /// `check`: the ``SchemaDrift``, as JSON.
        package var drift: JSONValue?
        /// `check`: the ``ReplayReport``, as JSON.
        package var report: JSONValue?
        /// `check`: the stores the host knows, when none has the session's id.
        package var unknownStore: [String]?
        /// `rerecord`: how many actions were replayed.
        package var rerecorded: Int?
        /// `states`: how many actions were replayed.
        package var replayed: Int?
        /// `rerecord`, `states`: why the replay stopped.
        package var failure: String?
        /// `states`: where the replayed states hold dictionaries written as keyed pairs, dates and durations
        /// (``EncodedTypeNotes/jsonMembers``), when they hold any.
        package var typeNotes: JSONValue?

        /// Creates a result with the given fields.
        package init(
            session: Int? = nil, header: JSONValue? = nil, drift: JSONValue? = nil, report: JSONValue? = nil,
            unknownStore: [String]? = nil, rerecorded: Int? = nil, replayed: Int? = nil, failure: String? = nil,
            typeNotes: JSONValue? = nil
        ) {
            self.session = session
            self.header = header
            self.drift = drift
            self.report = report
            self.unknownStore = unknownStore
            self.rerecorded = rerecorded
            self.replayed = replayed
            self.failure = failure
            self.typeNotes = typeNotes
        }
    }

    /// An `error`: what is wrong, the session line at fault, and for `check` the session at fault.
    package struct Failure: Sendable, Equatable {
        /// What is wrong, for people.
        package var message: String
        /// The session line at fault (0 when no line is: a file that cannot be read); absent for the request.
        package var line: Int?
        /// `check`: the index in `sessions` of the session at fault; absent for the request.
        package var session: Int?

        /// Creates the message's payload.
        package init(message: String, line: Int? = nil, session: Int? = nil) {
            self.message = message
            self.line = line
            self.session = session
        }
    }

    /// The message's kind.
    package var kind: Kind {
        switch self {
        case .hello: .hello
        case .state: .state
        case .line: .line
        case .result: .result
        case .error: .error
        }
    }
}
