/// Why a byte sequence is not a JSON document, and where the parser noticed it.
///
/// The parser stops at the first problem. ``offset`` counts bytes from the start of the input (not characters),
/// so it can point into the middle of a multi-byte character. Rendered as `at byte 17: expected ',' or '}' after
/// an object member`.
public struct JSONParseError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The byte offset where the problem was found, from 0. Equal to the input's length when the input ended early.
    public var offset: Int
    /// What is wrong, in a short lowercase phrase without the offset.
    public var message: String

    /// Creates a parse error.
    /// - Parameters:
    ///   - offset: The byte offset where the problem was found.
    ///   - message: What is wrong.
    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    /// The error as `at byte <offset>: <message>`.
    public var description: String {
        "at byte \(offset): \(message)"
    }
}
