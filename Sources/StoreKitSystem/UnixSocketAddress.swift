/// A Unix domain socket path checked against the platform's `sun_path` limit before any `bind` or `connect`.
package struct UnixSocketAddress: Sendable, Equatable {
    /// The socket's path.
    package let path: String

    /// The longest path `sun_path` holds, without its terminating NUL.
    package static var maxPathBytes: Int { MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1 }

    /// Checks `path`.
    /// - Throws: ``SystemError`` with `ENAMETOOLONG` when the path does not fit `sun_path`, `EINVAL` when empty.
    package init(path: String) throws(SystemError) {
        guard !path.isEmpty else { throw SystemError(call: "socket address", subject: "(empty path)", errno: EINVAL) }
        guard path.utf8.count <= Self.maxPathBytes else {
            throw SystemError(call: "socket address", subject: path, errno: ENAMETOOLONG)
        }
        self.path = path
    }

    /// Calls `body` with the address as a `sockaddr` and its length.
    @discardableResult
    func withSockaddr<T>(
        _ body: (UnsafePointer<sockaddr>, socklen_t) throws(SystemError) -> T
    ) throws(SystemError) -> T {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8)
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let result = withUnsafePointer(to: &address) { pointer -> Result<T, SystemError> in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                do {
                    return .success(try body(generic, socklen_t(MemoryLayout<sockaddr_un>.size)))
                } catch let error as SystemError {
                    return .failure(error)
                } catch {
                    preconditionFailure("socket calls throw only SystemError")
                }
            }
        }
        return try result.get()
    }
}
