import Dispatch
import StoreKitSystem

/// A transport that streams the session to `replayd` over its Unix domain socket.
///
/// The recorder calls it from its background thread only, so it may block, but never for long: sends and the wait
/// for the daemon's welcome are bounded by ``timeout``, and while the daemon is away, ``start(header:)`` fails at
/// once until the next retry is due (every 10 ms for the first second away, then twice as long each time up to 5 s,
/// starting over after a success: see ``ReconnectBackoff``), so a daemon that restarts within about a second is
/// found again within 10 ms of being back, and one gone for good costs an attempt every 5 s. It never raises
/// `SIGPIPE` in the app.
/// On every (re)connect it sends the header and reads the daemon's welcome, which says how much of this session the
/// daemon has stored. A daemon that speaks protocol 2 (its welcome says so) confirms what it persisted with
/// `persisted` replies, which ``persistedSequence()`` reads without waiting; the recorder then sends again what the
/// daemon lost, and records as a `gap` only what it no longer holds.
///
/// With a ``Journal`` (the default), the lines the daemon has not confirmed go to files on disk while it is
/// unreachable, and when they outgrow the recorder's in-memory hold, so a restart of any length (within the
/// journal's bound) loses nothing; and the first ``start(header:)`` sends, on a thread of its own, the journals
/// earlier apps left behind for this socket.
///
/// ```swift
/// let recorder = store.startRecording(.init(storeID: "todos", app: app), to: UnixSocketTransport())
/// ```
public final class UnixSocketTransport: SessionTransport, @unchecked Sendable {
    /// Why the transport could not deliver.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// The last connection attempt failed; the next is allowed after `seconds`.
        case backingOff(seconds: Double)
        /// The daemon refused the session (its `rejected` reply).
        case refused(reason: String)
        /// The daemon answered with something other than a welcome.
        case unexpectedReply(String)
        /// The socket's path is `bytes` long and a Unix socket address (`sun_path`) holds at most `limit` bytes of
        /// path here, so no connection is tried.
        case socketPathTooLong(path: String, bytes: Int, limit: Int)

        /// A sentence for logs and gap messages.
        public var description: String {
            switch self {
            case .backingOff(let seconds):
                "replayd is unreachable; next attempt in \(Int((seconds * 1000).rounded())) ms"
            case .refused(let reason): "replayd refused the session: \(reason)"
            case .unexpectedReply(let reply): "replayd sent an unexpected reply: \(reply)"
            case .socketPathTooLong(let path, let bytes, let limit):
                "the socket path '\(path)' is \(bytes) bytes long, and a Unix socket path (sun_path) holds at most "
                    + "\(limit) bytes on this system; set REPLAYD_SOCKET to a shorter path (and start replayd with "
                    + "the same)"
            }
        }
    }

    /// The socket's path.
    public let path: String
    /// The longest a send or the wait for the welcome may take, in seconds.
    public let timeout: Double
    /// Where the lines the daemon has not confirmed go beyond memory; `nil` keeps them in memory only.
    public let journal: Journal?
    /// Why ``path`` can never be connected to, when it cannot.
    private let unusablePath: Failure?
    private var fd: Int32 = -1
    /// The waits between failed attempts.
    private var backoff: ReconnectBackoff
    private var nextAttempt: UInt64 = 0
    /// Whether the last daemon that welcomed the session confirms what it persisted (protocol 2 or later); with a
    /// journal, presumed until a daemon says otherwise, so lines recorded before the first welcome are kept.
    private var confirmsPersistence: Bool
    /// Whether the journals earlier apps left behind were looked for.
    private var sentLeftoverJournals = false
    /// Signalled when the journals earlier apps left behind were sent (or left for the next launch).
    private var leftoverJournalsSent: DispatchSemaphore?
    /// The last sequence number the daemon confirmed.
    /// The effect lines the daemon holds after the last sequence number of its latest welcome.
    private var effectLinesAfterWelcome = 0
    private var persisted = 0
    /// Reply bytes read after the last complete reply line.
    private var replyBytes: [UInt8] = []
    /// The longest ``close()`` waits for the journals earlier apps left to be delivered, in seconds.
    private static let longestLeftoverWait = 10.0
    private static let longestReply = 1 << 16
    /// The largest send buffer a connection asks the system for.
    package static let largestSendBuffer = 4 << 20
    /// Below this, a connection keeps the system's default send buffer.
    private static let smallestSendBufferAsked = 256 << 10
    /// The send buffer each connection asks the system for, so that while `replayd` pauses (its disk busy writing
    /// back, say) the lines wait in the socket rather than hold up the recorder's background thread. The recorder
    /// sets it to a quarter of what it holds until the daemon confirms (Linux grants up to twice what is asked, its
    /// bookkeeping included), so that every line still in the socket when the daemon goes away can be sent again.
    package var sendBufferBytes = UnixSocketTransport.largestSendBuffer

    /// Creates a transport to the daemon at `path`, or at ``ReplaydSocketPath/resolve(environment:)`` when nil.
    /// - Parameters:
    ///   - path: The socket's path.
    ///   - timeout: The longest a send or the wait for the welcome may take, in seconds.
    ///   - journal: Where the lines the daemon has not confirmed go beyond memory (the app's caches folder, up to
    ///     256 MB, unless set); `nil` keeps them in memory only.
    public convenience init(path: String? = nil, timeout: Double = 2, journal: Journal? = Journal()) {
        self.init(path: path, timeout: timeout, firstRetryDelay: 0.01, journal: journal)
    }

    /// Creates a transport that waits `firstRetryDelay` seconds after a failed attempt during the first second away
    /// (for tests that must not depend on how fast the machine is; see ``ReconnectBackoff``), without a journal
    /// unless given one.
    package init(path: String?, timeout: Double, firstRetryDelay: Double, journal: Journal? = nil) {
        let path = path ?? ReplaydSocketPath.resolve()
        self.path = path
        let limit = UnixSocketAddress.maxPathBytes
        let bytes = path.utf8.count
        unusablePath = bytes > limit ? .socketPathTooLong(path: path, bytes: bytes, limit: limit) : nil
        self.timeout = timeout
        backoff = ReconnectBackoff(firstDelay: firstRetryDelay)
        // A socket that can never be reached has nothing to journal for.
        self.journal = unusablePath == nil ? journal : nil
        confirmsPersistence = self.journal != nil
    }

    deinit {
        if fd >= 0 { try? Syscall.close(fd) }
    }

    /// Connects (again), sends the header and reads the welcome.
    /// - Returns: The last sequence number the daemon has stored for this session (0 for a new one).
    /// - Throws: ``Failure`` or ``SystemError``; the recorder retries with its next batch. A path too long for a
    ///   Unix socket fails every start with ``Failure/socketPathTooLong(path:bytes:limit:)``.
    public func start(header: [UInt8]) throws -> Int? {
        disconnect()
        if let unusablePath { throw unusablePath }
        if let journal, !sentLeftoverJournals {
            sentLeftoverJournals = true
            leftoverJournalsSent = LeftoverJournals.sendInBackground(
                folder: journal.folder, socketPath: path, timeout: timeout)
        }
        let now = MonotonicClock.nanoseconds()
        guard now >= nextAttempt else {
            throw Failure.backingOff(seconds: Double(nextAttempt - now) / 1e9)
        }
        do {
            let lastSequence = try connect(header: header)
            backoff.reset()
            return lastSequence
        } catch {
            disconnect()
            nextAttempt = MonotonicClock.nanoseconds() + UInt64(backoff.delayAfterFailure() * 1e9)
            throw error
        }
    }

    /// Sends the lines.
    public func write(_ lines: [UInt8]) throws {
        guard fd >= 0 else { throw SystemError(call: "send", subject: path, errno: ENOTCONN) }
        do {
            try Syscall.sendAll(fd, lines, subject: path)
        } catch {
            disconnect()
            throw error
        }
    }

    /// Reads the daemon's `persisted` replies that have arrived, without waiting.
    /// - Returns: The last sequence number the daemon confirmed, or `nil` when it does not confirm (protocol 1).
    public func persistedSequence() -> Int? {
        guard confirmsPersistence else { return nil }
        readAvailableReplies()
        return persisted
    }

    /// The effect lines the daemon's welcome says it holds after the last sequence number it persisted.
    public func effectLinesHeldAfterStart() -> Int { effectLinesAfterWelcome }

    /// Closes the connection; the daemon stores what it received and closes the session file. When this transport
    /// found journals that earlier apps left, it first waits a few seconds at most for them to be delivered.
    public func close() throws {
        disconnect()
        // An app that records briefly would otherwise exit before the journals earlier apps left were delivered.
        _ = leftoverJournalsSent?.wait(timeout: .now() + max(timeout, Self.longestLeftoverWait))
        leftoverJournalsSent = nil
    }

    private func disconnect() {
        // A socket has nothing left to write back, so its close has nothing to report.
        if fd >= 0 { try? Syscall.close(fd) }
        fd = -1
        replyBytes = []
    }

    /// Takes the replies waiting on the socket; a `persisted` one moves ``persisted`` forward, others (a `rejected`
    /// line, which the recorder follows with a gap anyway) are passed over.
    private func readAvailableReplies() {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while fd >= 0 {
            var ready = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            // A failed poll or read leaves the confirmation where it was; the next write reports the connection.
            guard (try? Syscall.poll(&ready, timeoutMilliseconds: 0)) == 1 else { return }
            let count = chunk.withUnsafeMutableBytes { raw in
                try? Syscall.receive(fd, into: raw.baseAddress!, count: raw.count, subject: path)
            }
            guard let count, count > 0 else { return }
            replyBytes += chunk[..<count]
            while let newline = replyBytes.firstIndex(of: 0x0A) {
                do {
                    if case .persisted(let sequence) = try DaemonReply(line: replyBytes[..<newline]) {
                        persisted = max(persisted, sequence)
                    }
                } catch {
                    // A reply this client cannot read (a later daemon's kind) confirms nothing; it is passed over.
                }
                replyBytes.removeFirst(newline + 1)
            }
            if replyBytes.count > Self.longestReply { replyBytes = [] }
        }
    }

    private func connect(header: [UInt8]) throws -> Int {
        let address = try UnixSocketAddress(path: path)
        fd = try Syscall.makeUnixSocket()
        try Syscall.setTimeouts(fd, seconds: timeout)
        if sendBufferBytes >= Self.smallestSendBufferAsked {
            // A system that grants less (or refuses) leaves a smaller buffer, which only makes pauses cost more.
            _ = try? Syscall.setSendBufferSize(fd, bytes: sendBufferBytes)
        }
        try Syscall.connect(fd, to: address)
        try Syscall.sendAll(fd, header, subject: path)
        let reply = try readLine()
        let decoded: DaemonReply
        do {
            decoded = try DaemonReply(line: reply)
        } catch {
            throw Failure.unexpectedReply(String(decoding: reply.prefix(200), as: UTF8.self))
        }
        switch decoded {
        case .welcome(let welcome):
            confirmsPersistence = welcome.confirmsPersistence
            persisted = welcome.lastSequence
            effectLinesAfterWelcome = welcome.effectLinesAfterLastSequence
            return welcome.lastSequence
        case .rejected(_, let reason):
            throw Failure.refused(reason: reason)
        case .persisted:
            throw Failure.unexpectedReply(String(decoding: reply.prefix(200), as: UTF8.self))
        }
    }

    /// Reads the daemon's one-line reply to the header, bounded by the receive timeout.
    private func readLine() throws -> [UInt8] {
        var line: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while line.count < Self.longestReply {
            let count = try chunk.withUnsafeMutableBytes { raw in
                try Syscall.receive(fd, into: raw.baseAddress!, count: raw.count, subject: path)
            }
            guard let count else { throw SystemError(call: "recv", subject: path, errno: ETIMEDOUT) }
            guard count > 0 else { throw SystemError(call: "recv", subject: path, errno: ECONNRESET) }
            if let newline = chunk[..<count].firstIndex(of: 0x0A) {
                // The reply is one line and nothing follows it until the next header.
                return line + chunk[..<newline]
            }
            line += chunk[..<count]
        }
        throw Failure.unexpectedReply("a reply longer than \(Self.longestReply) bytes")
    }
}
