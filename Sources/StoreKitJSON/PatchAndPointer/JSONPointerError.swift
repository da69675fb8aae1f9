/// Why a string is not a JSON Pointer (RFC 6901).
public struct JSONPointerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with the pointer.
    public enum Reason: Sendable, Equatable {
        /// A pointer that is not empty must start with `/`.
        case missingLeadingSlash
        /// A `~` not followed by `0` or `1` (`escape` is the `~` and the character after it, or `~` alone at the
        /// end of `token`).
        case invalidEscape(escape: String, token: String)
    }

    /// The pointer as written.
    public var pointer: String
    /// What is wrong.
    public var reason: Reason

    /// Creates an error for `pointer`.
    public init(pointer: String, reason: Reason) {
        self.pointer = pointer
        self.reason = reason
    }

    /// `'/a~2' is not a JSON Pointer: '~2' in 'a~2' is not an escape ('~' must be followed by '0' or '1')`.
    public var description: String {
        let problem =
            switch reason {
            case .missingLeadingSlash:
                "it must be empty (the whole document) or start with '/'"
            case .invalidEscape(let escape, let token) where escape == "~":
                "'~' ends '\(token)'; '~' must be followed by '0' (for '~') or '1' (for '/')"
            case .invalidEscape(let escape, let token):
                "'\(escape)' in '\(token)' is not an escape; '~' must be followed by '0' (for '~') or '1' (for '/')"
            }
        return "'\(pointer)' is not a JSON Pointer: \(problem)"
    }
}
