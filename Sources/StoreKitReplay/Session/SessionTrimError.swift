/// Why a session cannot be trimmed to the steps asked for.
public struct SessionTrimError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with the range, in words: `--from 50 is past the session's last step, 40`.
    public var description: String

    /// Creates an error with its explanation.
    public init(_ description: String) {
        self.description = description
    }
}
