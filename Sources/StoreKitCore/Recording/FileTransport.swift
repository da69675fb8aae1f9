import StoreKitSystem

/// A transport that appends the session to a local file, created with mode 0600 if it does not exist.
///
/// Each batch of lines is handed to the kernel in one `write`; ``close()`` calls `fsync` so a finished session is
/// on disk.
public final class FileTransport: SessionTransport, @unchecked Sendable {
    /// The file's path.
    public let path: String
    private var fd: Int32 = -1

    /// Creates a transport writing to `path`; the file is opened when the session starts.
    public init(path: String) {
        self.path = path
    }

    deinit {
        if fd >= 0 { try? Syscall.close(fd, subject: path) }
    }

    /// Opens (creating or truncating) the file and writes the header; once open, a restart changes nothing.
    public func start(header: [UInt8]) throws -> Int? {
        guard fd < 0 else { return nil }
        let opened = try Syscall.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, mode: 0o600)
        do {
            try Syscall.writeAll(opened, header, subject: path)
        } catch {
            try? Syscall.close(opened, subject: path)
            throw error
        }
        fd = opened
        return nil
    }

    /// Appends the lines.
    public func write(_ lines: [UInt8]) throws {
        try append(lines)
    }

    /// Flushes the file to disk and closes it.
    public func close() throws {
        guard fd >= 0 else { return }
        defer { fd = -1 }
        try Syscall.syncAndClose(fd, subject: path)
    }

    private func append(_ bytes: [UInt8]) throws {
        guard fd >= 0 else { throw SystemError(call: "write", subject: path, errno: EBADF) }
        try Syscall.writeAll(fd, bytes, subject: path)
    }
}
