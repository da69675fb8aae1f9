import StoreKitCore

extension HostMessage.Result {
    /// The session header a `check` result carries.
    /// - Throws: ``HostProtocolError/Problem/malformed(kind:reason:)`` when there is none, or it is not a session
    ///   header line.
    package func sessionHeader() throws(HostProtocolError.Problem) -> SessionHeader {
        guard let header else { throw .malformed(kind: "result", reason: "it has no session header") }
        do {
            guard case .header(let sent) = try SessionEvent(jsonValue: header) else {
                throw SessionEventDecodingError(path: "kind", message: "is not 'session'")
            }
            return sent
        } catch {
            throw .malformed(kind: "result", reason: "its session header: \(error)")
        }
    }

    /// The replay report a `check` result carries, for the session that `header` starts.
    /// - Throws: ``HostProtocolError/Problem/malformed(kind:reason:)`` when the report does not read.
    package func replayReport(header: SessionHeader) throws(HostProtocolError.Problem) -> ReplayReport {
        do {
            return try ReplayReport(jsonValue: report ?? .null, header: header)
        } catch {
            throw .malformed(kind: "result", reason: "its report: \(error)")
        }
    }

    /// The schema drift a `check` result carries, for the session that `header` starts (none when it has none).
    package func schemaDrift(header: SessionHeader) -> SchemaDrift {
        SchemaDrift(jsonValue: drift ?? .null, header: header)
    }
}
