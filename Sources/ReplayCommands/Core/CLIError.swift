import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// A failure the command line reports, typed up to the top: its kind decides the exit status, and it renders both
/// as text (`Error: ...` and the usage line, on standard error) and, with `--json`, as a JSON document.
package struct CLIError: Error, CustomStringConvertible {
    /// What kind of trouble it is.
    package enum Kind: String, Sendable, CaseIterable {
        /// The command line does not fit the command.
        case usage
        /// A session cannot be read, or holds a line the reader refuses.
        case session
        /// Another input (a file, a folder, a JSON document, `.replay.json`, a step asked for) is missing or wrong.
        case input
        /// The replay host cannot be built or started, fails, hangs or breaks the protocol.
        case host
        /// What the command writes (a report, a rewritten session, a backup) cannot be written.
        case output

        /// The exit status: trouble for every kind (ok and different are verdicts, not errors).
        package var exitStatus: ExitStatus {
            switch self {
            case .usage, .session, .input, .host, .output: .trouble
            }
        }
    }

    /// What kind of trouble.
    package var kind: Kind
    /// What went wrong, with offending tokens in single quotes (without ``file`` and ``line``).
    package var message: String
    /// The command's usage line, shown after a usage error.
    package var usage: String?
    /// The session or file the error is in, when it is in one.
    package var file: String?
    /// The 1-based line of ``file``, when the error is on a line.
    package var line: Int?

    /// An error of `kind`, optionally located in `file` at `line`.
    package init(_ kind: Kind, _ message: String, file: String? = nil, line: Int? = nil) {
        self.kind = kind
        self.message = message
        self.file = file
        self.line = line
    }

    /// A usage error: the message and the command's usage line.
    package init(_ message: String, usage: String) {
        self.init(.usage, message)
        self.usage = usage
    }

    /// A session the reader refuses, at the reader's file and line.
    package init(_ error: SessionReadError) {
        self.init(.session, error.reason, file: error.source, line: error.line > 0 ? error.line : nil)
    }

    /// A session the reader refuses, named as the user named it (`<stdin>` for standard input).
    init(_ error: SessionReadError, in session: SessionInput) {
        self.init(.session, error.reason, file: session.displayName, line: error.line > 0 ? error.line : nil)
    }

    /// The exit status the command line ends with.
    package var exitStatus: ExitStatus { kind.exitStatus }

    /// `file:line: message`, as the text output says it after `Error: `.
    package var description: String {
        guard let file else { return message }
        return "\(file)\(line.map { ":\($0)" } ?? ""): \(message)"
    }

    /// The text on standard error: `Error: ...`, then `Usage: ...` for a usage error.
    package var text: String { "Error: \(description)" + (usage.map { "\nUsage: \($0)" } ?? "") }

    /// The JSON form `--json` prints: `{"error": kind, "message": ..., "file": ..., "line": ..., "usage": ...}`,
    /// with `file`, `line` and `usage` only when the error has them.
    package var jsonValue: JSONValue {
        var object: [String: JSONValue] = ["error": .string(kind.rawValue), "message": .string(message)]
        if let file { object["file"] = .string(file) }
        if let line { object["line"] = .integer(Int64(line)) }
        if let usage { object["usage"] = .string(usage) }
        object["exitStatus"] = .integer(Int64(exitStatus.code))
        return .object(object)
    }
}
