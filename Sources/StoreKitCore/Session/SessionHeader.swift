import StoreKitJSON

/// The first line of every session: who recorded it, which store replays it, and the state it started from.
public struct SessionHeader: Sendable, Hashable {
    /// The format version of the file: 3 when it may hold notes, else 2 when the store has replayable effects,
    /// else 1 (``SessionFormat/version(replayableEffects:recordsNotes:)``).
    public var formatVersion: Int
    /// The session's id; a reconnect continues the same id.
    public var sessionID: String
    /// Which replayable store replays this session (see ``ReplayableStore``).
    public var storeID: String
    /// The app that recorded it.
    public var app: AppInfo
    /// Wall-clock start time, ISO 8601 in UTC with milliseconds.
    public var startedAt: String
    /// The host name of the recording machine.
    public var host: String
    /// The process id of the recording app.
    public var pid: Int
    /// The store's state when recording started, canonically encoded.
    public var initialState: JSONValue
    /// Free-form metadata the app attached.
    public var metadata: [String: JSONValue]
    /// The paths the recorder redacted (see ``Redaction``); replay masks the same paths. Empty when none.
    public var redaction: Redaction
    /// The names of the store's replayable effects (`replay: .rerun`), whose runs the session records and replay
    /// reruns; empty in format 1.
    public var effects: [String]
    /// What the initial state's JSON does not say of its Swift types (where it holds dates, durations, dictionaries
    /// written as keyed pairs, and arrays whose elements are identified by a member other than `id`), noted by the
    /// recorder as it encoded that state, so that `log` and `history` show its values as `diff` does. Empty in a
    /// session recorded before the header carried them; places the initial state does not hold yet (inside an empty
    /// array, behind a `nil` optional) are not noted.
    public var typeNotes: EncodedTypeNotes

    /// Creates a session header.
    /// - Parameter formatVersion: The format version; by default the one `effects` needs.
    public init(
        formatVersion: Int? = nil, sessionID: String, storeID: String, app: AppInfo,
        startedAt: String, host: String, pid: Int, initialState: JSONValue, metadata: [String: JSONValue] = [:],
        redaction: Redaction = Redaction(), effects: [String] = [], typeNotes: EncodedTypeNotes = EncodedTypeNotes()
    ) {
        self.formatVersion = formatVersion ?? SessionFormat.version(replayableEffects: effects)
        self.effects = effects
        self.sessionID = sessionID
        self.storeID = storeID
        self.app = app
        self.startedAt = startedAt
        self.host = host
        self.pid = pid
        self.initialState = initialState
        self.metadata = metadata
        self.redaction = redaction
        self.typeNotes = typeNotes
    }
}
