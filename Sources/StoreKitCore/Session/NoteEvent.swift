/// Something the app said between actions, for the people reading the session: a log message, a request and its
/// status, a screen change. Replay skips notes; `log` and `report` show them in the timeline.
///
/// A note is data, never markup: every reader shows its message and fields as text. Its fields are labels, like
/// swift-log's metadata, kept as strings so any reader can show them.
public struct NoteEvent: Sendable, Hashable {
    /// Seconds since the session started, on the monotonic clock actions are stamped with, when the app wrote the
    /// note.
    public var time: Double
    /// What happened, such as `GET /todos failed`.
    public var message: String
    /// Labels that go with the message, such as `["requestId": "r-17", "status": "500"]`; empty when none.
    public var fields: [String: String]

    /// Creates a note.
    public init(time: Double, message: String, fields: [String: String] = [:]) {
        self.time = time
        self.message = message
        self.fields = fields
    }
}
