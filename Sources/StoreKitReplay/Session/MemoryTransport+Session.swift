import StoreKitCore

extension MemoryTransport {
    /// Parses what was delivered so far as a session.
    /// - Throws: ``SessionReadError`` when the lines are not a valid session.
    public func session() throws(SessionReadError) -> Session {
        try Session(ndjson: data, source: "<memory>")
    }
}
