import Foundation
import StoreKitCore
import StoreKitReplay
import StoreKitSystem

/// The daemon's claim on its socket: the private directory, the lock that keeps one instance per socket, and the
/// listening socket itself.
final class DaemonListener {
    /// The socket's path.
    let path: String
    /// The listening socket, non-blocking.
    private(set) var fd: Int32
    private let lockFD: Int32
    private let address: UnixSocketAddress
    /// Which file the socket is, to notice when it is deleted or replaced.
    private var identity: Syscall.FileIdentity?
    /// True once a replacement was reported, so it is reported once.
    private var replacementReported = false

    /// Prepares the socket's directory (0700, refused when others can write to it), takes the lock (on a regular
    /// file, never through a symbolic link), removes a stale socket file, and listens with mode 0600.
    /// - Throws: ``DaemonError`` with a message for the user.
    init(path: String) throws(DaemonError) {
        self.path = path
        let directory = (path as NSString).deletingLastPathComponent
        do {
            address = try UnixSocketAddress(path: path)
            try Self.preparePrivateDirectory(directory.isEmpty ? "." : directory)
        } catch let error as DaemonError {
            throw error
        } catch {
            throw DaemonError("cannot use socket path \(path): \(error)")
        }
        lockFD = try Self.lock(path + ".lock", socketPath: path)
        do {
            try Syscall.unlink(path)
            (fd, identity) = try Self.listen(at: address, path: path)
        } catch {
            try? Syscall.close(lockFD)
            throw DaemonError("cannot listen on \(path): \(error)")
        }
    }

    private static func listen(at address: UnixSocketAddress, path: String) throws(SystemError) -> (Int32, Syscall.FileIdentity?) {
        let fd = try Syscall.makeUnixSocket()
        do {
            try Syscall.bind(fd, to: address)
            try Syscall.changeMode(path, 0o600)
            try Syscall.listen(fd, backlog: 512, subject: path)
            try Syscall.setFlags(fd, status: O_NONBLOCK)
            return (fd, try Syscall.status(path)?.identity)
        } catch {
            try? Syscall.close(fd)
            throw error
        }
    }

    /// What ``checkSocketFile()`` found.
    enum SocketFileCheck: Equatable {
        /// The socket file is the one this daemon listens on.
        case intact
        /// It had been deleted, and was created again; clients can connect again.
        case recreated
        /// Another file took its name (reported once); this daemon leaves it alone.
        case replaced
        /// It had been deleted, and could not be created again.
        case failed(String)
    }

    /// Checks that the socket file still exists and is ours, and listens again on a new one if it was deleted,
    /// so a stray `rm` does not leave the apps with no daemon to reach.
    func checkSocketFile() -> SocketFileCheck {
        let current: Syscall.FileStatus?
        do {
            current = try Syscall.status(path)
        } catch {
            return .failed("\(error)")
        }
        if let current {
            guard current.identity != identity, !replacementReported else { return .intact }
            replacementReported = true
            return .replaced
        }
        do {
            let (newFD, newIdentity) = try Self.listen(at: address, path: path)
            try? Syscall.close(fd)
            fd = newFD
            identity = newIdentity
            replacementReported = false
            return .recreated
        } catch {
            return .failed("\(error)")
        }
    }

    /// Stops listening, removes the socket and releases the lock. The lock file stays: removing it could let two
    /// daemons lock two different files for one socket.
    func close() {
        try? Syscall.close(fd)
        if (try? Syscall.status(path))??.identity == identity { try? Syscall.unlink(path) }
        try? Syscall.close(lockFD)
    }

    /// Creates `directory` (and its parents) as 0700 if needed, and refuses one that others can write to or
    /// that another user owns.
    static func preparePrivateDirectory(_ directory: String) throws {
        if try Syscall.status(directory) == nil {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try Syscall.changeMode(directory, 0o700)
        }
        guard let status = try Syscall.status(directory), status.isDirectory else {
            throw DaemonError("\(directory) is not a directory")
        }
        guard status.owner == geteuid() else {
            throw DaemonError("refusing to use \(directory): it belongs to user \(status.owner), not to this user (\(geteuid()))")
        }
        guard status.permissions & 0o022 == 0 else {
            let mode = String(status.permissions, radix: 8)
            throw DaemonError(
                "refusing to use \(directory): others can write to it (mode \(mode)); use a private directory (chmod 700)")
        }
    }

    private static func lock(_ lockPath: String, socketPath: String) throws(DaemonError) -> Int32 {
        do {
            let fd = try PrivateFile.open(lockPath, O_RDWR | O_CREAT)
            guard try Syscall.tryLockExclusively(fd, subject: lockPath) else {
                let holder = String(decoding: try Syscall.read(fd, at: 0, count: 32, subject: lockPath), as: UTF8.self)
                    .trimmingCharacters(in: .whitespacesAndNewlines)
                try? Syscall.close(fd)
                throw DaemonError(
                    "another replayd is already serving \(socketPath)" + (holder.isEmpty ? "" : " (pid \(holder))"))
            }
            try Syscall.truncate(fd, to: 0, subject: lockPath)
            try Syscall.writeAll(fd, Array("\(getpid())\n".utf8), subject: lockPath)
            return fd
        } catch let error as DaemonError {
            throw error
        } catch {
            throw DaemonError("cannot lock \(lockPath): \(error)")
        }
    }
}
