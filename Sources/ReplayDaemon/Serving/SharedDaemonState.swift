import StoreKitCore
import StoreKitReplay
import StoreKitSystem

/// What the daemon's threads share, always used under one lock (`Locked<SharedDaemonState>`).
struct SharedDaemonState {
    /// File names of the sessions being recorded now, so one session has one writer whichever thread serves it.
    var activeSessions: Set<String> = []
    /// Connections accepted and not yet closed.
    var openConnections = 0
    /// Connections accepted and not yet closed, by the peer's process id.
    var openConnectionsByProcess: [pid_t: Int] = [:]
    /// Lines stored on the connections that have closed.
    var linesStored = 0
    /// Lines rejected on the connections that have closed.
    var linesRejected = 0
    /// Where the sessions whose clients left without an `end` stood, for their reconnects.
    var leftSessions = LeftSessions()

    /// Counts a new connection from `process`, unless it would pass one of `limits`.
    /// - Returns: The connections now open, or the limit the new one would pass.
    mutating func admit(from process: pid_t, within limits: ConnectionLimits) -> Result<Int, ConnectionLimits.Exceeded> {
        guard openConnections < limits.total else { return .failure(.total) }
        guard openConnectionsByProcess[process, default: 0] < limits.perPeer else { return .failure(.perPeer) }
        openConnections += 1
        openConnectionsByProcess[process, default: 0] += 1
        return .success(openConnections)
    }

    /// Stops counting a connection from `process` that closed.
    mutating func release(from process: pid_t) {
        openConnections -= 1
        let left = openConnectionsByProcess[process, default: 0] - 1
        openConnectionsByProcess[process] = left > 0 ? left : nil
    }
}
