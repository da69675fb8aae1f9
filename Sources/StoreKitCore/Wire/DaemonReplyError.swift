/// Why a line from the daemon is not a ``DaemonReply`` this client can read.
package enum DaemonReplyError: Error, Equatable, CustomStringConvertible {
    /// The reply's `kind` names no reply of ``DaemonProtocol/version`` (a later daemon's, which a client passes over).
    case unknownKind(String)
    /// A `welcome` names a protocol version before ``DaemonProtocol/firstVersion``.
    case unsupportedVersion(Int)
    /// The line is not a JSON object, has no `kind`, or a field is missing or of the wrong type; the text says which.
    case malformed(String)

    /// A sentence for logs.
    package var description: String {
        switch self {
        case .unknownKind(let kind): "unknown reply kind '\(kind)'"
        case .unsupportedVersion(let version):
            "protocol \(version) is not supported; this client reads protocol \(DaemonProtocol.firstVersion) or later"
        case .malformed(let problem): "malformed reply: \(problem)"
        }
    }
}
