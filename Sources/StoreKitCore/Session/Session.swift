/// A whole session held in memory: its header and the events after it.
///
/// Use ``SessionReader`` to stream a large file instead; a `Session` suits tests, golden files and small tools.
public struct Session: Sendable, Hashable {
    /// The header line.
    public var header: SessionHeader
    /// Every event after the header, in file order.
    public var events: [SessionEvent]

    /// Creates a session from its header and events.
    ///
    /// > Warning: The events must keep the format's rules, as a file's lines must (see ``SessionLineDecoder``):
    /// > sequence numbers one more than the last covered, gaps only where a ``GapEvent`` names them, no second
    /// > header. ``ReplayEngine/replay(_:)`` checks them and stops the process on a session that breaks them.
    public init(header: SessionHeader, events: [SessionEvent]) {
        self.header = header
        self.events = events
    }

    /// Reads the whole session at `path` (`-` reads standard input).
    /// - Throws: ``SessionReadError`` for the first problem found.
    public init(contentsOf path: String, maxLineBytes: Int = SessionFormat.defaultMaxLineBytes) throws(SessionReadError) {
        try self.init(reader: try SessionReader(path: path, maxLineBytes: maxLineBytes))
    }

    /// Parses a session held in memory as NDJSON; `source` names it in errors.
    /// - Throws: ``SessionReadError`` for the first problem found.
    public init(ndjson: [UInt8], source: String = "<memory>") throws(SessionReadError) {
        try self.init(reader: SessionReader(bytes: ndjson, source: source))
    }

    /// Reads every event `reader` has left.
    public init(reader: SessionReader) throws(SessionReadError) {
        var header: SessionHeader?
        var events: [SessionEvent] = []
        while let event = try reader.next() {
            if case .header(let found) = event { header = found } else { events.append(event) }
        }
        // The reader throws unless a header came first, so one is always there.
        self.init(header: header!, events: events)
    }

    /// The action events, in order.
    public var actions: [ActionEvent] {
        events.compactMap { if case .action(let action) = $0 { action } else { nil } }
    }

    /// The session as NDJSON: every line canonical and `\n`-terminated.
    public var ndjson: [UInt8] {
        var bytes: [UInt8] = []
        SessionEvent.header(header).appendLine(to: &bytes)
        for event in events { event.appendLine(to: &bytes) }
        return bytes
    }
}
