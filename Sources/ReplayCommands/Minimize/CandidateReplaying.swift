import StoreKitJSON
import StoreKitReplay

/// What `minimize` replays sessions with: one version of the code's host (the current one, or a baseline's), in two
/// conversations of the replay-host protocol.
protocol CandidateReplaying {
    /// The reducers' state after each action of `session` (a `states` request), or where the host stopped.
    /// - Parameter timeout: Seconds a silent host is given.
    /// - Throws: ``CLIError`` for every failure but a host that stops without an answer.
    func states(of session: SessionInput, timeout: Double) throws(CLIError) -> ReplayHostClient.Exchange

    /// What checking `session` found (a `check` request: its drift and its report), the places `ignoring` names
    /// left out.
    /// - Parameter timeout: Seconds a silent host is given.
    /// - Throws: ``CLIError`` when the host fails, or does not know the session's store.
    func check(_ session: SessionInput, ignoring: [JSONPathPattern], timeout: Double) throws(CLIError) -> ReplayHostClient.Outcome
}

/// A host, as `minimize` replays with it.
struct HostCandidateReplayer: CandidateReplaying {
    /// The host to run.
    var host: HostCommand
    /// The members that identify the elements of arrays in its reports' diffs, where it is not `id`.
    var identity: [IdentityKey] = []

    func states(of session: SessionInput, timeout: Double) throws(CLIError) -> ReplayHostClient.Exchange {
        try ReplayHostClient(host: host, timeout: timeout).exchange(ReplayHostRequest(command: .states), session: session)
    }

    func check(_ session: SessionInput, ignoring: [JSONPathPattern], timeout: Double) throws(CLIError) -> ReplayHostClient.Outcome {
        try ReplayHostClient(host: host, timeout: timeout)
            .check(session, ReplayHostClient.Checking(ignoring: ignoring, identity: identity), progressOn: nil)
    }
}
