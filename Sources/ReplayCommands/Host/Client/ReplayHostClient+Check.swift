import Foundation
import StoreKitCore
import StoreKitReplay

/// The `check` conversation: schema drift, then replay, in one request; many sessions go to one host process, which
/// opens each itself and checks several at once.
extension ReplayHostClient {
    /// What checking a session found.
    struct Outcome {
        /// The session's header, as the host read it.
        var header: SessionHeader
        /// How the recorded values' shapes differ from what the current types write.
        var drift: SchemaDrift
        /// The replay's verdict and what it found.
        var report: ReplayReport

        /// ``ExitStatus/ok`` for a match or an incomplete replay, ``ExitStatus/different`` when it diverged or drifted.
        var exitStatus: ExitStatus {
            switch report.verdict {
            case .match, .incomplete: drift.isEmpty ? .ok : .different
            default: .different
            }
        }
    }

    /// How the sessions are checked, beside which sessions.
    struct Checking {
        /// List every diverging step instead of stopping at the first.
        var findAll = false
        /// Stop after this step; `nil` for all.
        var lastStep: Int?
        /// How many actions before each divergence the report carries.
        var contextActions = 0
        /// The places whose values do not count.
        var ignoring: [JSONPathPattern] = []
        /// Which member identifies the elements of which arrays in the divergences' diffs.
        var identity: [IdentityKey] = []
    }

    /// Checks `session`: the host reads it once, checks its drift, replays it (the values at the places
    /// `checking.ignoring` names taken from the recorded states before each comparison) and sends both with the
    /// `checking.contextActions` actions before each divergence.
    /// - Parameter terminal: Where the step being replayed is shown as progress; `nil` for none.
    func check(_ session: SessionInput, _ checking: Checking, progressOn terminal: Terminal?) throws(CLIError) -> Outcome {
        let onStep = terminal.map { terminal in
            { (step: Int, _: String) in terminal.progress("replaying \(session.displayName): step \(step)") }
        }
        let outcome = check([session], checking, jobs: 1, onStep: onStep)[0]
        terminal?.endProgress()
        return try outcome.get()
    }

    /// Checks every session of `sessions` in one host process, `jobs` at a time, and returns their outcomes in
    /// order; `onChecked` is called as each is done.
    ///
    /// A host that crashes, hangs or prints garbage takes down the sessions it was replaying, not the others: the
    /// ``ProgressBoard`` says which sessions were in flight and at which step. One in flight is reported as the
    /// host's failure at its step; several are each checked again alone, so the one that fails names its own step and
    /// the others get their verdicts. The sessions not yet started go on in a new host.
    func check(
        _ sessions: [SessionInput], _ checking: Checking, jobs: Int, onStep: ((Int, String) -> Void)? = nil,
        onChecked: (() -> Void)? = nil
    ) -> [Result<Outcome, CLIError>] {
        var outcomes: [Result<Outcome, CLIError>?] = Array(repeating: nil, count: sessions.count)
        func settle(_ index: Int, _ outcome: Result<Outcome, CLIError>) {
            outcomes[index] = outcome
            onChecked?()
        }
        var pending: [Int] = []
        for (index, session) in sessions.enumerated() {
            do {
                try session.refuseUnreadable()
                pending.append(index)
            } catch {
                settle(index, .failure(error))
            }
        }
        while !pending.isEmpty {
            let batch = pending
            let failure = runHost(on: batch, sessions, checking, jobs: jobs, onStep: onStep, settle: settle)
            let unfinished = batch.filter { outcomes[$0] == nil }
            pending = []
            guard let failure else {
                // The host exited after answering: anything it left out is its failure.
                for index in unfinished { settle(index, .failure(CLIError(.host, "the replay host exited without an answer for this session"))) }
                break
            }
            let inFlight = failure.inFlight.filter { outcomes[$0.index] == nil }
            switch inFlight.count {
            case 0:
                // Nothing had started: the host fails the same way for every session.
                for index in unfinished { settle(index, .failure(failure.error(index, nil))) }
            case 1:
                settle(inFlight[0].index, .failure(failure.error(inFlight[0].index, inFlight[0].entry)))
                pending = unfinished.filter { $0 != inFlight[0].index }
            default:
                for (index, _) in inFlight {
                    settle(index, check([sessions[index]], checking, jobs: 1)[0])
                }
                pending = unfinished.filter { index in !inFlight.contains { $0.index == index } }
            }
        }
        return outcomes.map { $0! }
    }

    /// How a host failed before answering for every session: the sessions it was replaying (with what the board
    /// said of each), and the error for one of them.
    private struct HostFailure {
        var inFlight: [(index: Int, entry: ProgressBoard.Entry)]
        /// The error for the session at an index of the whole list, given what the board said of it.
        var error: (Int, ProgressBoard.Entry?) -> CLIError
    }

    /// Runs one host on the sessions at `indices`, settling each as its answer comes; `nil` when every session was
    /// answered, else how the host failed.
    private func runHost(
        on indices: [Int], _ sessions: [SessionInput], _ checking: Checking, jobs: Int, onStep: ((Int, String) -> Void)?,
        settle: (Int, Result<Outcome, CLIError>) -> Void
    ) -> HostFailure? {
        let workers = max(1, min(jobs, indices.count))
        let directory = FileManager.default.currentDirectoryPath
        let request = ReplayHostRequest(
            command: .check, findAllDivergences: checking.findAll, lastStep: checking.lastStep,
            contextActions: checking.contextActions, ignoring: checking.ignoring, identity: checking.identity,
            sessions: indices.map { URL(fileURLWithPath: sessions[$0].path, relativeTo: URL(fileURLWithPath: directory)).path },
            jobs: workers)
        let process: HostProcess
        do {
            process = try HostProcess(host, request: request, slots: workers, input: nil, environment: environment)
        } catch {
            return HostFailure(inFlight: [], error: { _, _ in error })
        }
        var stores: [String] = []
        var answered = 0
        func inFlight() -> [(index: Int, entry: ProgressBoard.Entry)] {
            process.board().compactMap { entry in
                guard let entry, indices.indices.contains(entry.session) else { return nil }
                return (indices[entry.session], entry)
            }
        }
        while answered < indices.count {
            let next: HostProcess.Next
            do {
                next = try process.next(timeout: timeout, onStep: onStep)
            } catch {
                return HostFailure(inFlight: [], error: { _, _ in error })
            }
            switch next {
            case .hello(let known):
                stores = known
            case .stopped(let how):
                return HostFailure(inFlight: inFlight(), error: { process.stopError(how, at: $1) })
            case .hung:
                return HostFailure(inFlight: inFlight(), error: { process.hangError(at: $1, timeout: timeout) })
            case .garbage(let text):
                return HostFailure(inFlight: inFlight(), error: { process.garbageError(text, at: $1) })
            case .invalid(let error):
                let failure = process.failure("sent \(error)", at: nil)
                return HostFailure(inFlight: inFlight(), error: { _, _ in failure })
            case .message(.result(let result), let line):
                guard let position = result.session, indices.indices.contains(position) else {
                    let failure = process.failure("sent a 'result' line without its 'session'", at: nil)
                    return HostFailure(inFlight: inFlight(), error: { _, _ in failure })
                }
                let index = indices[position]
                answered += 1
                settle(index, Result { () throws(CLIError) in try outcome(of: result, line: line, stores: stores, session: sessions[index]) })
            case .message(.error(let failure), _):
                guard let position = failure.session, indices.indices.contains(position) else {
                    // The host refused the request itself: the same error for every session.
                    return HostFailure(inFlight: []) { index, _ in
                        CLIError(.session, failure.message, file: sessions[index].displayName, line: failure.line)
                    }
                }
                let index = indices[position]
                answered += 1
                settle(index, .failure(CLIError(.session, failure.message, file: sessions[index].displayName, line: failure.line)))
            case .message(let message, _):
                let failure = process.failure("sent an unexpected '\(message.kind.rawValue)' line", at: nil)
                return HostFailure(inFlight: inFlight(), error: { _, _ in failure })
            }
        }
        return nil
    }

    /// The outcome a host's `result` line for `session` gives (`line`, to quote when a part of it does not read).
    private func outcome(of result: HostMessage.Result, line: [UInt8], stores: [String], session: SessionInput) throws(CLIError) -> Outcome {
        let header: SessionHeader
        do throws(HostProtocolError.Problem) {
            header = try result.sessionHeader()
        } catch {
            throw CLIError(.host, "the replay host sent \(HostProtocolError(error, line: line))")
        }
        if result.unknownStore != nil {
            throw CLIError(
                .host, "the replay host does not know store '\(header.storeID.escapingControls())' (it knows: \(stores.joined(separator: ", ")))",
                file: session.displayName)
        }
        let drift = result.schemaDrift(header: header)
        let report: ReplayReport
        do throws(HostProtocolError.Problem) {
            report = try result.replayReport(header: header)
        } catch {
            throw CLIError(.host, "the replay host sent \(HostProtocolError(error, line: line))")
        }
        if case .unknownStore(let id, let known) = report.verdict {
            throw CLIError(
                .host, "the replay host does not know store '\(id)' (it knows: \(known.joined(separator: ", ")))",
                file: session.displayName)
        }
        return Outcome(header: header, drift: drift, report: report)
    }
}
