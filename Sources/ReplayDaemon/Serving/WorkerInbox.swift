import StoreKitCore
import StoreKitReplay
import StoreKitSystem

/// How the accepting thread hands a worker its new connections and tells it to stop: a list under a lock, and a
/// pipe whose readable end wakes the worker's `poll`.
final class WorkerInbox: Sendable {
    /// A connection accepted, and checked to come from this user, for a worker to serve.
    struct Accepted: Sendable {
        /// The connection's socket, now owned by the worker.
        var fd: Int32
        /// The connection's number in the logs.
        var id: Int
        /// The process id of the app at the other end.
        var peer: pid_t
        /// When (monotonic nanoseconds) the connection is closed unless its session header has arrived.
        var headerDeadline: UInt64
    }

    /// What the worker has been handed since it last looked.
    struct Delivery {
        /// New connections to serve.
        var connections: [Accepted] = []
        /// True once the daemon is stopping.
        var stopping = false
    }

    /// The end the worker polls; readable while something waits for it.
    let wakeReadEnd: Int32
    private let wakeWriteEnd: Int32
    private let pending = Locked(Delivery())

    /// Creates the inbox and its pipe.
    init() throws(SystemError) {
        (wakeReadEnd, wakeWriteEnd) = try Syscall.makePipe()
    }

    deinit {
        try? Syscall.close(wakeReadEnd)
        try? Syscall.close(wakeWriteEnd)
    }

    /// Hands over a connection; the worker owns its socket from now on.
    func hand(_ connection: Accepted) {
        pending.withLock { $0.connections.append(connection) }
        wake()
    }

    /// Tells the worker to store what its clients already sent, close every session and stop.
    func stop() {
        pending.withLock { $0.stopping = true }
        wake()
    }

    /// Takes what was handed over, and empties the pipe.
    func take() -> Delivery {
        var scratch = [UInt8](repeating: 0, count: 64)
        while let count = try? Syscall.read(wakeReadEnd, into: &scratch), count > 0 {}
        return pending.withLock { delivery in
            defer { delivery.connections.removeAll() }
            return delivery
        }
    }

    private func wake() {
        // A full pipe (EAGAIN) already holds a wake-up the worker has not read, which is all this needs.
        try? Syscall.writeAll(wakeWriteEnd, [1], subject: "a worker's wake-up pipe")
    }
}
