import StoreKitCore
import StoreKitReplay
import StoreKitSystem

/// One connected app: its socket, the lines it has sent so far, and the session it is recording.
final class ClientConnection {
    /// The connection's socket.
    let fd: Int32
    /// A number for the logs, counting connections since the daemon started.
    let id: Int
    /// The process id of the app at the other end.
    let peer: pid_t
    /// When (monotonic nanoseconds) the connection is closed unless its session header has arrived by then.
    let headerDeadline: UInt64
    /// Splits what the client sends into lines.
    var framer: LineFramer
    /// The line check's memory of the last valid line the client sent.
    let lineMemory = SessionLineValidator.StreamMemory()
    /// The session file, once the header arrived.
    var session: SessionFile?
    /// The session id from the header.
    var sessionID: String?
    /// Lines stored on this connection.
    var storedLines = 0
    /// Lines rejected on this connection.
    var rejectedLines = 0
    /// Lines rejected on this connection since the last line stored: what a gap the daemon writes says.
    var rejectedSinceStored = 0
    /// Checked lines whose write to the session file failed; retried before anything more is read.
    var unwritten: [UInt8] = []
    /// Set when the connection must close once the current read is handled (its header was refused, or never came).
    var isClosing = false
    /// Replies not yet taken by the client's socket; bounded so a client that never reads costs little.
    private var outbox: [UInt8] = []
    /// The last sequence number a `persisted` reply confirmed to the client.
    private var confirmedSequence = 0
    /// Replies dropped because the client does not read them.
    private(set) var droppedReplies = 0
    private static let outboxLimit = 1 << 16

    /// Creates a connection for an accepted socket.
    init(_ accepted: WorkerInbox.Accepted, maxLineBytes: Int) {
        fd = accepted.fd
        id = accepted.id
        peer = accepted.peer
        headerDeadline = accepted.headerDeadline
        framer = LineFramer(maxLineBytes: maxLineBytes)
    }

    deinit {
        try? Syscall.close(fd)
    }

    /// Sends one reply line to the client without ever waiting: what the socket does not take now waits in a
    /// small outbox, and replies beyond it are dropped and counted.
    func reply(_ reply: DaemonReply) {
        let line = reply.line
        if outbox.count + line.count <= Self.outboxLimit {
            outbox += line
        } else {
            droppedReplies += 1
        }
        flushReplies()
    }

    /// Tells the client that its session's lines up to `sequence` are in the session file (protocol 2), once per
    /// read that stored lines. Skipped while earlier replies wait in the outbox: a client that does not read its
    /// replies gets no more of these, and the next one it does get confirms everything before it.
    func confirmPersisted(through sequence: Int) {
        guard sequence > confirmedSequence, outbox.isEmpty else { return }
        confirmedSequence = sequence
        reply(.persisted(seq: sequence))
    }

    /// Sends what the outbox holds, as far as the socket takes it now.
    func flushReplies() {
        guard !outbox.isEmpty else { return }
        // A send error means the client is gone: its replies have nowhere to go.
        let sent = outbox.withUnsafeBytes { try? Syscall.send(fd, $0) } ?? outbox.count
        outbox.removeFirst(sent)
    }
}
