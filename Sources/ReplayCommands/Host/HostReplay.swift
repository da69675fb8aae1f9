import StoreKitCore
import StoreKitReplay

/// Checks one session through a replay host: schema drift first, then replay.
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

    func check(
        _ session: SessionInput, findAll: Bool = false, lastStep: Int? = nil, progress: Bool = true
    ) throws(CLIError) -> Outcome {
        let header = try Self.header(of: session)
        var total = 0
        var client = HostClient(host: host, timeout: timeout, onStep: nil)
        let driftAnswer = try client.run(ReplayHostRequest(command: .drift), sessionPath: session.path, displayName: session.displayName)
        guard driftAnswer.result["unknownStore"] == nil else {
            throw CLIError(.host, 
"\(session.displayName): the replay host does not know store '\(header.storeID)' (it knows: \(driftAnswer.stores.joined(separator: ", ")))")
        }
        let drift = SchemaDrift(jsonValue: driftAnswer.result["drift"] ?? .null, header: header)
        total = drift.checkedValues / 2
        if progress {
            let terminal = terminal
            client.onStep = { step, _ in
                if step % 1000 == 0 { terminal.progress("replaying \(session.displayName): step \(step) of \(total)") }
            }
        }
        let answer = try client.run(
            ReplayHostRequest(command: .replay, findAllDivergences: findAll, lastStep: lastStep),
            sessionPath: session.path, displayName: session.displayName)
        if progress { terminal.endProgress() }
        let report: ReplayReport
        do {
            report = try ReplayReport(jsonValue: answer.result["report"] ?? .null, header: header)
        } catch {
            throw CLIError(.host, "the replay host's report does not fit the protocol: \(error)")
        }
        if case .unknownStore(let id, let known) = report.verdict {
            throw CLIError(.host, "\(session.displayName): the replay host does not know store '\(id)' (it knows: \(known.joined(separator: ", ")))")
        }
        return Outcome(header: header, drift: drift, report: report)
    }

    /// Reads just the header, so a malformed first line is reported before any host starts.
    static func header(of session: SessionInput) throws(CLIError) -> SessionHeader {
        do {
            let reader = try SessionReader(path: session.path)
            guard case .header(let header) = try reader.next() else { throw CLIError(.session, "the session is empty", file: session.displayName) }
            return header
        } catch let error as CLIError {
            throw error
        } catch let error as SessionReadError {
            throw CLIError(error, in: session)
        } catch {
            throw CLIError(.session, "\(error)", file: session.displayName)
        }
    }
}
