/// A command line that does not fit its command: what is wrong, with offending tokens in single quotes, and the
/// command's usage line.
///
/// Rendered as swift-argument-parser does: `Error: unknown option '--jsn'` with `Did you mean '--json'?`, then
/// `Usage: ...`.
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public var message: String
    /// The command's usage line.
    public var usage: String

    /// Creates an error for `usage`.
    public init(_ message: String, usage: String) {
        self.message = message
        self.usage = usage
    }

    /// `Error: message` and `Usage: usage` on two lines, as shown on standard error.
    public var description: String { "Error: \(message)\nUsage: \(usage)" }
}
