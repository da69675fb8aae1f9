import StoreKitCore
import StoreKitReplay

/// What the daemon's threads share, always used under one lock (`Locked<SharedDaemonState>`).
struct SharedDaemonState {
    /// File names of the sessions being recorded now, so one session has one writer whichever thread serves it.
    var activeSessions: Set<String> = []
    /// Connections accepted and not yet closed.
    var openConnections = 0
    /// Lines stored on the connections that have closed.
    var linesStored = 0
    /// Lines rejected on the connections that have closed.
    var linesRejected = 0
}
