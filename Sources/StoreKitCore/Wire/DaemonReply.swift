import Foundation
import StoreKitJSON

/// One line `replayd` sends a recording client (docs/replayd.md, "The wire protocol"), written and read by these
/// declarations on both ends.
///
/// A reply is one canonical JSON object (keys sorted) with a `kind`, then a newline:
/// `{"file":"todos-s1.jsonl","kind":"welcome","lastSeq":0,"protocol":2,"sessionId":"s1"}`,
/// `{"kind":"persisted","seq":12}`, `{"kind":"rejected","line":3,"reason":"..."}`.
package enum DaemonReply: Codable, Equatable, Sendable {
    /// The answer to a session header: the session is open.
    case welcome(Welcome)
    /// Every line of the session up to sequence number `seq` is in the session file (protocol 2).
    case persisted(seq: Int)
    /// The connection's line number `line` (counting from 1) was refused, for `reason`.
    case rejected(line: Int, reason: String)

    /// The `kind` that tells the replies apart on the wire.
    package enum Kind: String, Sendable {
        /// A ``DaemonReply/welcome(_:)``.
        case welcome
        /// A ``DaemonReply/persisted(seq:)``.
        case persisted
        /// A ``DaemonReply/rejected(line:reason:)``.
        case rejected
    }

    /// The reply's `kind`.
    package var kind: Kind {
        switch self {
        case .welcome: .welcome
        case .persisted: .persisted
        case .rejected: .rejected
        }
    }

    /// Reads one reply line (its newline may be left on).
    /// - Throws: ``DaemonReplyError``: `unknownKind` and `unsupportedVersion` as ``init(from:)`` throws them, and
    ///   `malformed` for anything else that is wrong, with the decoding error's path and summary.
    package init(line: some Collection<UInt8>) throws(DaemonReplyError) {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: line)
        } catch {
            throw .malformed(error.description)
        }
        do {
            self = try JSONValueDecoder().decode(DaemonReply.self, from: value)
        } catch let error as DaemonReplyError {
            throw error
        } catch let error as DecodingError {
            let path = error.jsonPath
            throw .malformed(path.isEmpty ? error.summary : "\(path): \(error.summary)")
        } catch {
            throw .malformed("\(error)")
        }
    }

    /// The reply as the daemon writes it: canonical JSON (keys sorted) and a newline.
    package var line: [UInt8] {
        do {
            return try CanonicalJSONEncoder().encodeToBytes(self) + [0x0A]
        } catch {
            preconditionFailure("a daemon reply holds only strings and integers, which always encode: \(error)")
        }
    }

    private enum CodingKeys: String, CodingKey {
        case kind, file, line, reason
        case sessionID = "sessionId"
        case lastSequence = "lastSeq"
        case effectLinesAfterLastSequence = "effectLines"
        case protocolVersion = "protocol"
        case sequence = "seq"
    }

    /// Decodes a reply.
    /// - Throws: ``DaemonReplyError/unknownKind(_:)`` for a `kind` this version does not know,
    ///   ``DaemonReplyError/unsupportedVersion(_:)`` for a welcome's `protocol` before
    ///   ``DaemonProtocol/firstVersion``, and `DecodingError` for a missing or mistyped field.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .kind)
        guard let kind = Kind(rawValue: name) else { throw DaemonReplyError.unknownKind(name) }
        switch kind {
        case .welcome:
            let version =
                try container.decodeIfPresent(Int.self, forKey: .protocolVersion) ?? DaemonProtocol.firstVersion
            guard version >= DaemonProtocol.firstVersion else { throw DaemonReplyError.unsupportedVersion(version) }
            self = .welcome(
                Welcome(
                    sessionID: try container.decode(String.self, forKey: .sessionID),
                    lastSequence: try container.decode(Int.self, forKey: .lastSequence),
                    effectLinesAfterLastSequence:
                        try container.decodeIfPresent(Int.self, forKey: .effectLinesAfterLastSequence) ?? 0,
                    file: try container.decode(String.self, forKey: .file), protocolVersion: version))
        case .persisted:
            self = .persisted(seq: try container.decode(Int.self, forKey: .sequence))
        case .rejected:
            self = .rejected(
                line: try container.decode(Int.self, forKey: .line),
                reason: try container.decode(String.self, forKey: .reason))
        }
    }

    /// Encodes the reply with its `kind`.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind.rawValue, forKey: .kind)
        switch self {
        case .welcome(let welcome):
            try container.encode(welcome.sessionID, forKey: .sessionID)
            try container.encode(welcome.lastSequence, forKey: .lastSequence)
            if welcome.effectLinesAfterLastSequence > 0 {
                try container.encode(welcome.effectLinesAfterLastSequence, forKey: .effectLinesAfterLastSequence)
            }
            try container.encode(welcome.file, forKey: .file)
            try container.encode(welcome.protocolVersion, forKey: .protocolVersion)
        case .persisted(let sequence):
            try container.encode(sequence, forKey: .sequence)
        case .rejected(let line, let reason):
            try container.encode(line, forKey: .line)
            try container.encode(reason, forKey: .reason)
        }
    }
}
