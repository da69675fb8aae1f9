import StoreKitCore
import StoreKitJSON

extension HostMessage: Codable {
    /// Every key of every message: the one list both ends read and write.
    private enum Key: String, CodingKey {
        case kind, `protocol`, stores, seq, name, state, line, session, header, drift, report, unknownStore
        case rerecorded, replayed, failure, message, typeNotes
    }

    /// Reads a message of a known kind.
    /// - Throws: ``HostProtocolError/Problem/unknownKind(_:)`` for a kind this version does not have,
    ///   ``HostProtocolError/Problem/unsupportedVersion(_:)`` for a `hello` of another version, or the
    ///   `DecodingError` of a field that does not fit.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        let kindName = try container.decode(String.self, forKey: .kind)
        guard let kind = Kind(rawValue: kindName) else { throw HostProtocolError.Problem.unknownKind(kindName) }
        switch kind {
        case .hello:
            _ = try HostProtocolVersion(from: container, forKey: .protocol)
            self = .hello(stores: try container.decode([String].self, forKey: .stores))
        case .state:
            self = .state(
                ReplayedState(
                    seq: try container.decode(Int.self, forKey: .seq), name: try container.decode(String.self, forKey: .name),
                    state: try container.decode(JSONValue.self, forKey: .state)))
        case .line:
            self = .line(try container.decode(JSONValue.self, forKey: .line))
        case .result:
            self = .result(
                Result(
                    session: try container.decodeIfPresent(Int.self, forKey: .session),
                    header: try container.decodeIfPresent(JSONValue.self, forKey: .header),
                    drift: try container.decodeIfPresent(JSONValue.self, forKey: .drift),
                    report: try container.decodeIfPresent(JSONValue.self, forKey: .report),
                    unknownStore: try container.decodeIfPresent([String].self, forKey: .unknownStore),
                    rerecorded: try container.decodeIfPresent(Int.self, forKey: .rerecorded),
                    replayed: try container.decodeIfPresent(Int.self, forKey: .replayed),
                    failure: try container.decodeIfPresent(String.self, forKey: .failure),
                    typeNotes: try container.decodeIfPresent(JSONValue.self, forKey: .typeNotes)))
        case .error:
            self = .error(
                Failure(
                    message: try container.decode(String.self, forKey: .message),
                    line: try container.decodeIfPresent(Int.self, forKey: .line),
                    session: try container.decodeIfPresent(Int.self, forKey: .session)))
        }
    }

    /// Writes the message with its `kind`; absent optional fields are not written.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(kind.rawValue, forKey: .kind)
        switch self {
        case .hello(let stores):
            try container.encode(HostProtocolVersion(), forKey: .protocol)
            try container.encode(stores, forKey: .stores)
        case .state(let replayed):
            try container.encode(replayed.seq, forKey: .seq)
            try container.encode(replayed.name, forKey: .name)
            try container.encode(replayed.state, forKey: .state)
        case .line(let line):
            try container.encode(line, forKey: .line)
        case .result(let result):
            try container.encodeIfPresent(result.session, forKey: .session)
            try container.encodeIfPresent(result.header, forKey: .header)
            try container.encodeIfPresent(result.drift, forKey: .drift)
            try container.encodeIfPresent(result.report, forKey: .report)
            try container.encodeIfPresent(result.unknownStore, forKey: .unknownStore)
            try container.encodeIfPresent(result.rerecorded, forKey: .rerecorded)
            try container.encodeIfPresent(result.replayed, forKey: .replayed)
            try container.encodeIfPresent(result.failure, forKey: .failure)
            try container.encodeIfPresent(result.typeNotes, forKey: .typeNotes)
        case .error(let failure):
            try container.encode(failure.message, forKey: .message)
            try container.encodeIfPresent(failure.line, forKey: .line)
            try container.encodeIfPresent(failure.session, forKey: .session)
        }
    }

    /// Reads one line the host printed (without its newline).
    /// - Throws: ``HostProtocolError``, quoting the line: ``HostProtocolError/Problem/notProtocol`` when it is not a
    ///   JSON object with a string `kind`, else what ``init(from:)`` throws, a field that does not fit as
    ///   ``HostProtocolError/Problem/malformed(kind:reason:)``.
    package init(line: [UInt8]) throws(HostProtocolError) {
        guard let value = try? JSONValue(parsing: line), let kind = value["kind"]?.stringValue else {
            throw HostProtocolError(.notProtocol, line: line)
        }
        do {
            self = try JSONValueDecoder().decode(HostMessage.self, from: value)
        } catch let problem as HostProtocolError.Problem {
            throw HostProtocolError(problem, line: line)
        } catch {
            throw HostProtocolError(.malformed(kind: kind, error: error), line: line)
        }
    }

    /// The message as one protocol line: canonical JSON (keys sorted, as ``JSONValue/canonicalBytes()`` writes them)
    /// and a newline.
    package func lineBytes() -> [UInt8] {
        var bytes: [UInt8]
        do {
            bytes = try CanonicalJSONEncoder().encodeToBytes(self)
        } catch {
            // Every field is a string, an integer or a JSONValue already built, which always encode.
            preconditionFailure("a replay-host message did not encode: \(error)")
        }
        bytes.append(0x0A)
        return bytes
    }
}
