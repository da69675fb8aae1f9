import StoreKitReplay

/// The baselines one command compares with, each checked out and built once however many sessions name it
/// (`check --baseline recorded` may meet one commit per session).
struct BaselineHosts {
    /// The current host, whose commands the baselines run in their worktrees.
    var current: HostCommand
    /// Where progress goes.
    var terminal: Terminal
    private var prepared: [String: (host: BaselineHost, identity: HostIdentity)] = [:]
    /// The commits prepared, in the order first asked for.
    private var order: [String] = []

    /// Every baseline prepared, in the order first asked for.
    var all: [(host: BaselineHost, identity: HostIdentity)] { order.compactMap { prepared[$0] } }

    /// Baselines of `current`.
    init(current: HostCommand, terminal: Terminal) {
        self.current = current
        self.terminal = terminal
    }

    /// The baseline `revision` names, checked out and built the first time it is asked for.
    /// - Throws: ``CLIError`` when the revision names no commit, or its host cannot be checked out or built.
    mutating func baseline(_ revision: String) throws(CLIError) -> (host: BaselineHost, identity: HostIdentity) {
        let commit = try BaselineHost.Repository(of: current).commit(revision)
        if var known = prepared[commit] {
            known.host.revision = revision
            return known
        }
        let host = try BaselineHost.prepare(revision: revision, current: current, terminal: terminal)
        let built = (host: host, identity: try host.bringUpToDate(terminal))
        prepared[commit] = built
        order.append(commit)
        return built
    }
}
