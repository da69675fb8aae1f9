import StoreKitCore
import StoreKitReplay

/// Checks one session through a replay host: schema drift, then replay, in one request that streams the session to
/// the host once.
struct HostReplay {
    /// What checking a session found.
    struct Outcome {
        var header: SessionHeader
        var drift: SchemaDrift
        var report: ReplayReport

        /// 0 match or incomplete, 1 diverged or drifted.
        var exitStatus: Int32 {
            switch report.verdict {
            case .match, .incomplete: drift.isEmpty ? 0 : 1
            default: 1
            }
        }
    }

    var host: HostCommand
    var timeout: Double
    var terminal: Terminal

    /// Checks `session`: the host reads it once, checks its drift, replays it (the values at the places `ignoring`
    /// names taken from the recorded states before each comparison) and sends both with the `contextActions`
    /// actions before each divergence.
    func check(
        _ session: SessionInput, findAll: Bool = false, lastStep: Int? = nil, contextActions: Int = 0,
        ignoring: [JSONPathPattern] = [], progress: Bool = true
    ) throws(CLIError) -> Outcome {
        var client = HostClient(host: host, timeout: timeout, onStep: nil)
        if progress {
            let terminal = terminal
            client.onStep = { step, _ in
                if step % 1000 == 0 { terminal.progress("replaying \(session.displayName): step \(step)") }
            }
        }
        let request = ReplayHostRequest(
            command: .check, findAllDivergences: findAll, lastStep: lastStep, contextActions: contextActions,
            ignoring: ignoring)
        let answer = try client.run(request, sessionPath: session.path, displayName: session.displayName)
        if progress { terminal.endProgress() }
        let header: SessionHeader
        do {
            guard case .header(let sent) = try SessionEvent(jsonValue: answer.result["header"] ?? .null) else {
                throw CLIError(.host, "the replay host's result has no session header")
            }
            header = sent
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError(.host, "the replay host's session header does not fit the protocol: \(error)")
        }
        if answer.result["unknownStore"] != nil {
            throw CLIError(
                .host, "the replay host does not know store '\(header.storeID)' (it knows: \(answer.stores.joined(separator: ", ")))",
                file: session.displayName)
        }
        let drift = SchemaDrift(jsonValue: answer.result["drift"] ?? .null, header: header)
        let report: ReplayReport
        do {
            report = try ReplayReport(jsonValue: answer.result["report"] ?? .null, header: header)
        } catch {
            throw CLIError(.host, "the replay host's report does not fit the protocol: \(error)")
        }
        if case .unknownStore(let id, let known) = report.verdict {
            throw CLIError(
                .host, "the replay host does not know store '\(id)' (it knows: \(known.joined(separator: ", ")))",
                file: session.displayName)
        }
        return Outcome(header: header, drift: drift, report: report)
    }
}
