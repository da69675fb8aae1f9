import Foundation
import StoreKitCore
import StoreKitSystem

/// The two ends of a connected Unix stream socket, for tests of code that talks over one.
package enum ConnectedUnixSockets {
    /// Connects a socket through a short temporary path, which is removed again before it returns.
    /// - Returns: The end that connected and the end the listener accepted; the caller closes both.
    /// - Throws: `SystemError` from the calls that make the connection.
    package static func make() throws -> (client: Int32, accepted: Int32) {
        let path = "/tmp/cus-\(UUID().uuidString.prefix(8)).sock"
        defer { try? Syscall.unlink(path) }
        let listener = try Syscall.makeUnixSocket()
        defer { try? Syscall.close(listener) }
        try Syscall.bind(listener, to: UnixSocketAddress(path: path))
        try Syscall.listen(listener, backlog: 1)
        let client = try Syscall.makeUnixSocket()
        do {
            try Syscall.connect(client, to: UnixSocketAddress(path: path))
            guard let accepted = try Syscall.accept(listener) else {
                throw SystemError(call: "accept", subject: path, errno: EAGAIN)
            }
            return (client, accepted)
        } catch {
            try? Syscall.close(client)
            throw error
        }
    }
}
