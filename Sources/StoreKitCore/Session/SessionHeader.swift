import StoreKitJSON

/// The first line of every session: who recorded it, which store replays it, and the state it started from.
public struct SessionHeader: Sendable, Hashable {
    /// The format version of the file (``SessionFormat/version`` when written by this library).
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

    /// Creates a session header.
    public init(
        formatVersion: Int = SessionFormat.version, sessionID: String, storeID: String, app: AppInfo,
        startedAt: String, host: String, pid: Int, initialState: JSONValue, metadata: [String: JSONValue] = [:],
        redaction: Redaction = Redaction()
    ) {
        self.formatVersion = formatVersion
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
