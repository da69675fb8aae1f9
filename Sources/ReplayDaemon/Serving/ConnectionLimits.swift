import StoreKitCore
import StoreKitReplay
import StoreKitSystem

/// How many connections replayd serves at once, in all and from one process: so that one app opening connections
/// without end cannot lock the other apps out, and a session file never fails to open for want of a descriptor.
struct ConnectionLimits: Sendable {
    /// Connections one process may have open at once (`--max-connections-per-peer`).
    var perPeer: Int
    /// Connections open at once in all: what the descriptor limit leaves after ``reservedDescriptors(workerCount:)``,
    /// halved, because a connection recording a session holds its session file open too.
    var total: Int

    /// The limits for a process allowed `descriptorLimit` open descriptors.
    init(descriptorLimit: UInt64, workerCount: Int, perPeer: Int) {
        self.perPeer = perPeer
        // At least one, however low the limit.
        total = max(Int(clamping: descriptorLimit) - Self.reservedDescriptors(workerCount: workerCount), 2) / 2
    }

    /// Descriptors kept for what is not a connection: the standard streams, the listening socket, its lock, the
    /// signal pipe, each worker's wake-up pipe, and 32 for files opened for a moment (repair, retention, the index,
    /// a connection accepted only to be refused).
    static func reservedDescriptors(workerCount: Int) -> Int { 3 + 1 + 1 + 2 + 2 * workerCount + 32 }

    /// Which limit a new connection would pass.
    enum Exceeded: String, Error {
        /// Its process already has ``ConnectionLimits/perPeer`` connections open.
        case perPeer
        /// The daemon already serves ``ConnectionLimits/total`` connections.
        case total
    }

    /// Why a connection from `process` is refused, for the log and the client.
    func reason(_ exceeded: Exceeded, process: pid_t) -> String {
        switch exceeded {
        case .perPeer:
            "process \(process) already has \(perPeer) connections open, the most one process may have "
                + "(--max-connections-per-peer)"
        case .total:
            "replayd already serves \(total) connections, the most its open-file limit leaves room for"
        }
    }
}
