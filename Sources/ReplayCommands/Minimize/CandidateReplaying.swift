import StoreKitJSON
import StoreKitReplay

/// What `minimize` replays sessions with: the current host, in two conversations of the replay-host protocol.
protocol CandidateReplaying {
    /// The current reducers' state after each action of `session` (a `states` request), or where the host stopped.
    /// - Parameter timeout: Seconds a silent host is given.
    /// - Throws: ``CLIError`` for every failure but a host that stops without an answer.
    func states(of session: SessionInput, timeout: Double) throws(CLIError) -> ReplayHostClient.Exchange

    /// The report of checking `session` (a `check` request), the places `ignoring` names left out.
    /// - Parameter timeout: Seconds a silent host is given.
    /// - Throws: ``CLIError`` when the host fails, or does not know the session's store.
    func check(_ session: SessionInput, ignoring: [JSONPathPattern], timeout: Double) throws(CLIError) -> ReplayReport
}

/// The current host, as `minimize` replays with it.
struct HostCandidateReplayer: CandidateReplaying {
    /// The host to run.
    var host: HostCommand

    func states(of session: SessionInput, timeout: Double) throws(CLIError) -> ReplayHostClient.Exchange {
        try ReplayHostClient(host: host, timeout: timeout).exchange(ReplayHostRequest(command: .states), session: session)
    }

    func check(_ session: SessionInput, ignoring: [JSONPathPattern], timeout: Double) throws(CLIError) -> ReplayReport {
        try ReplayHostClient(host: host, timeout: timeout)
            .check(session, ReplayHostClient.Checking(ignoring: ignoring), progressOn: nil).report
    }
}
