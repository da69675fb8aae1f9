import StoreKitCore

extension Session {
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
}
