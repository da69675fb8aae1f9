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

    /// Creates a session header.
    /// - Parameter formatVersion: The format version; by default the one `effects` needs.
    public init(
        formatVersion: Int? = nil, sessionID: String, storeID: String, app: AppInfo,
        startedAt: String, host: String, pid: Int, initialState: JSONValue, metadata: [String: JSONValue] = [:],
        redaction: Redaction = Redaction(), effects: [String] = []
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
    }
}
