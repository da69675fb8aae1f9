extension Syscall {
    /// Creates a Unix domain stream socket, close-on-exec, that never raises `SIGPIPE` (`SO_NOSIGPIPE` where the
    /// platform has it; elsewhere ``send(_:_:subject:)`` passes `MSG_NOSIGNAL`).
    package static func makeUnixSocket() throws(SystemError) -> Int32 {
        let fd = try retrying("socket") { systemUnixStreamSocket() }
        try retrying("setsockopt", subject: "SO_NOSIGPIPE") { systemSetNoSIGPIPE(fd) }
        try setFlags(fd, descriptor: FD_CLOEXEC)
        return fd
    }

    /// Creates two connected Unix domain stream sockets, blocking and close-on-exec, that never raise `SIGPIPE`:
    /// a channel to a child process whose end going away shows as `EPIPE` from ``sendAll(_:_:subject:)``, where a
    /// pipe would raise the signal in a process that does not ignore it.
    package static func makeSocketPair() throws(SystemError) -> (Int32, Int32) {
        var ends: [Int32] = [-1, -1]
        try retrying("socketpair") { systemUnixStreamSocketPair(&ends) }
        do {
            for end in ends {
                try retrying("setsockopt", subject: "SO_NOSIGPIPE") { systemSetNoSIGPIPE(end) }
                try setFlags(end, descriptor: FD_CLOEXEC)
            }
        } catch {
            for end in ends { try? close(end) }
            throw error
        }
        return (ends[0], ends[1])
    }

    /// Binds `fd` to the socket path in `address`.
    package static func bind(_ fd: Int32, to address: UnixSocketAddress) throws(SystemError) {
        try address.withSockaddr { pointer, length throws(SystemError) in
            try retrying("bind", subject: address.path) { systemBind(fd, pointer, length) }
        }
    }

    /// Connects `fd` to the socket at `address`.
    package static func connect(_ fd: Int32, to address: UnixSocketAddress) throws(SystemError) {
        try address.withSockaddr { pointer, length throws(SystemError) in
            try retrying("connect", subject: address.path) { systemConnect(fd, pointer, length) }
        }
    }

    /// Marks `fd` as accepting connections.
    package static func listen(_ fd: Int32, backlog: Int32, subject: String? = nil) throws(SystemError) {
        try retrying("listen", subject: subject) { systemListen(fd, backlog) }
    }

    /// Accepts one pending connection as a non-blocking, close-on-exec descriptor; `nil` when none is waiting.
    package static func accept(_ fd: Int32, subject: String? = nil) throws(SystemError) -> Int32? {
        do {
            let client = try retrying("accept", subject: subject) { systemAccept(fd) }
            try setFlags(client, descriptor: FD_CLOEXEC, status: O_NONBLOCK)
            try retrying("setsockopt", subject: "SO_NOSIGPIPE") { systemSetNoSIGPIPE(client) }
            return client
        } catch where error.errno == EAGAIN || error.errno == EWOULDBLOCK || error.errno == ECONNABORTED {
            return nil
        }
    }

    /// Sends as much of `bytes` as the socket takes now, never raising `SIGPIPE`.
    /// - Returns: The number of bytes sent; 0 when the socket would block.
    package static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, subject: String? = nil) throws(SystemError) -> Int {
        do {
            return try retrying("send", subject: subject) { systemSend(fd, bytes.baseAddress, bytes.count) }
        } catch where error.errno == EAGAIN || error.errno == EWOULDBLOCK {
            return 0
        }
    }

    /// Sends all of `bytes` on a blocking socket (bounded by its send timeout), never raising `SIGPIPE`.
    package static func sendAll(_ fd: Int32, _ bytes: [UInt8], subject: String? = nil) throws(SystemError) {
        let failure = bytes.withUnsafeBytes { buffer -> SystemError? in
            var offset = 0
            while offset < buffer.count {
                do {
                    let sent = try send(fd, UnsafeRawBufferPointer(rebasing: buffer[offset...]), subject: subject)
                    // A blocking socket that returns EAGAIN has hit its send timeout.
                    guard sent > 0 else { return SystemError(call: "send", subject: subject, errno: ETIMEDOUT) }
                    offset += sent
                } catch let error as SystemError {
                    return error
                } catch {
                    preconditionFailure("send throws only SystemError")
                }
            }
            return nil
        }
        if let failure { throw failure }
    }

    /// Receives up to `count` bytes into `buffer`.
    /// - Returns: The number of bytes read, 0 at end of stream, `nil` when a non-blocking socket has nothing yet.
    package static func receive(
        _ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int, subject: String? = nil
    ) throws(SystemError) -> Int? {
        do {
            return try retrying("recv", subject: subject) { systemRecv(fd, buffer, count, 0) }
        } catch where error.errno == EAGAIN || error.errno == EWOULDBLOCK {
            return nil
        }
    }

    /// Sets the send and receive timeouts of a blocking socket.
    package static func setTimeouts(_ fd: Int32, seconds: Double) throws(SystemError) {
        var time = timeval()
        time.tv_sec = Int(seconds)
        time.tv_usec = .init((seconds - Double(Int(seconds))) * 1_000_000)
        for option in [SO_SNDTIMEO, SO_RCVTIMEO] {
            try retrying("setsockopt", subject: option == SO_SNDTIMEO ? "SO_SNDTIMEO" : "SO_RCVTIMEO") {
                systemSetsockopt(fd, SOL_SOCKET, option, &time, socklen_t(MemoryLayout<timeval>.size))
            }
        }
    }

    /// Asks for a send buffer of `bytes` on a socket, and returns what the system granted: it may grant less (Linux
    /// caps what is asked at `net.core.wmem_max`, Darwin at `kern.ipc.maxsockbuf`), and Linux reports twice what it
    /// takes, its bookkeeping included.
    @discardableResult
    package static func setSendBufferSize(_ fd: Int32, bytes: Int) throws(SystemError) -> Int {
        var size = Int32(clamping: bytes)
        try retrying("setsockopt", subject: "SO_SNDBUF") {
            systemSetsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var granted: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        try retrying("getsockopt", subject: "SO_SNDBUF") { getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &granted, &length) }
        return Int(granted)
    }

    /// Who is at the other end of a connected Unix socket, as the kernel saw it when the peer connected.
    package struct PeerCredentials: Sendable, Equatable {
        /// The peer's effective user id.
        package var userID: uid_t
        /// The peer's process id (0 when the peer is in another pid namespace).
        package var processID: pid_t
    }

    /// The user and process at the other end of a connected Unix socket (`SO_PEERCRED` on Linux; `getpeereid` and
    /// `LOCAL_PEERPID` on Darwin): one of the platform differences too large for a shim in `Platform.swift`.
    package static func peerCredentials(_ fd: Int32) throws(SystemError) -> PeerCredentials {
        #if canImport(Darwin)
        var uid: uid_t = 0
        var gid: gid_t = 0
        try retrying("getpeereid") { getpeereid(fd, &uid, &gid) }
        var pid: pid_t = 0
        var length = socklen_t(MemoryLayout<pid_t>.size)
        try retrying("getsockopt", subject: "LOCAL_PEERPID") { getsockopt(fd, SOL_LOCAL, LOCAL_PEERPID, &pid, &length) }
        return PeerCredentials(userID: uid, processID: pid)
        #else
        var credentials = LinuxPeerCredentials()
        var length = socklen_t(MemoryLayout<LinuxPeerCredentials>.size)
        try retrying("getsockopt", subject: "SO_PEERCRED") {
            getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length)
        }
        return PeerCredentials(userID: credentials.uid, processID: credentials.pid)
        #endif
    }

    /// Waits until one of `descriptors` is ready or `timeoutMilliseconds` pass (-1 waits forever).
    /// - Returns: The number of ready descriptors; their `revents` are filled in.
    package static func poll(_ descriptors: inout [pollfd], timeoutMilliseconds: Int32) throws(SystemError) -> Int {
        let count = nfds_t(descriptors.count)
        let result = descriptors.withUnsafeMutableBufferPointer { buffer -> Result<Int32, SystemError> in
            do {
                return .success(try retrying("poll") { systemPoll(buffer.baseAddress, count, timeoutMilliseconds) })
            } catch let error as SystemError {
                return .failure(error)
            } catch {
                preconditionFailure("poll throws only SystemError")
            }
        }
        return Int(try result.get())
    }
}

#if !canImport(Darwin)
/// Linux's `struct ucred`, which Glibc only declares under `_GNU_SOURCE`.
private struct LinuxPeerCredentials {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}
#endif
