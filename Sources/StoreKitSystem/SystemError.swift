/// A failed system call: which call, on what, and the `errno` it set.
///
/// Rendered like `open /tmp/x.jsonl: No such file or directory (errno 2)`.
public struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The name of the call that failed, such as `open` or `bind`.
    public var call: String
    /// What the call worked on (a path, a socket), when that helps the reader.
    public var subject: String?
    /// The `errno` value the call set.
    public var errno: Int32

    /// Creates an error for `call` with the given `errno`.
    public init(call: String, subject: String? = nil, errno: Int32) {
        self.call = call
        self.subject = subject
        self.errno = errno
    }

    /// The C library's words for ``errno``.
    public var reason: String { String(cString: strerror(errno)) }

    /// `call subject: reason (errno N)`.
    public var description: String {
        let target = subject.map { " \($0)" } ?? ""
        return "\(call)\(target): \(reason) (errno \(errno))"
    }
}
