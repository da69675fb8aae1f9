/// A line of the replay-host protocol (a message or a request) that a reader cannot take: not the protocol at all, a
/// kind or command it does not know, another protocol version, or a known message whose fields do not fit it; with
/// the start of the line, to quote.
package struct HostProtocolError: Error, Equatable, CustomStringConvertible {
    /// What is wrong with a line, without the line.
    package enum Problem: Error, Equatable {
        /// The line is not a JSON object with a string `kind`.
        case notProtocol
        /// The line's `kind` names no message of this protocol version.
        case unknownKind(String)
        /// The request's `command` names no command of this protocol version.
        case unknownCommand(String)
        /// The line speaks another protocol version (the number it gave, `nil` for none or not a number).
        case unsupportedVersion(Int?)
        /// A message of a known `kind` whose fields do not fit it (`reason` says which, and how).
        case malformed(kind: String, reason: String)
    }

    /// What is wrong.
    package var problem: Problem
    /// The start of the line (``excerpt(of:)``).
    package var excerpt: String

    /// Creates an error for `problem` in the line that `excerpt` starts.
    package init(_ problem: Problem, excerpt: String) {
        self.problem = problem
        self.excerpt = excerpt
    }

    /// Creates an error for `problem` in `line`, quoting its start.
    package init(_ problem: Problem, line: [UInt8]) {
        self.init(problem, excerpt: Self.excerpt(of: line))
    }

    /// The start of a line to quote in a message: its first 120 characters.
    package static func excerpt(of line: [UInt8]) -> String {
        String(String(decoding: line.prefix(480), as: UTF8.self).prefix(120))
    }

    /// The problem and the line, as the object of "the replay host sent ...".
    package var description: String {
        switch problem {
        case .notProtocol:
            "something that is not the replay-host protocol: '\(excerpt)'"
        case .unknownKind(let kind):
            "an unknown message kind '\(kind)': '\(excerpt)'"
        case .unknownCommand(let command):
            "a request with an unknown command '\(command)': '\(excerpt)'"
        case .unsupportedVersion(let version):
            "a line of replay-host protocol \(version.map(String.init) ?? "(none)"), not \(ReplayHost.protocolVersion): '\(excerpt)'"
        case .malformed(let kind, let reason):
            "a '\(kind)' line that does not fit the protocol (\(reason)): '\(excerpt)'"
        }
    }
}

extension HostProtocolError.Problem {
    /// A `kind` whose fields do not fit, as `error` says (a `DecodingError` with the place at fault).
    package static func malformed(kind: String, error: any Error) -> Self {
        guard let error = error as? DecodingError else { return .malformed(kind: kind, reason: "\(error)") }
        if case .keyNotFound = error { return .malformed(kind: kind, reason: error.summary) }
        let place = error.jsonPath.isEmpty ? "" : " at \(error.jsonPath)"
        return .malformed(kind: kind, reason: "\(error.summary)\(place)")
    }
}
