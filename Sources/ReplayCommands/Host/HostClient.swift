import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// Runs a replay host for one request and reads its answer, never hanging and never crashing with it.
struct HostClient {
    /// What a host answered.
    struct Answer {
        /// The stores the host can replay.
        var stores: [String]
        /// The `result` line.
        var result: HostMessage.Result
        /// The `line` lines (for a re-record).
        var lines: [JSONValue]
        /// The `state` lines (for a `states` request), in step order.
        var states: [ReplayedState] = []
    }

    /// One replayed state of a `states` request.
    struct ReplayedState: Equatable {
        /// The step's sequence number.
        var step: Int
        /// Its action's display name.
        var name: String
        /// The state after it.
        var state: JSONValue
    }

    /// A host that stopped (a signal, or an exit) without an answer: where it was, and what it had sent.
    struct Stop {
        /// The last step the host announced, and its action's name; `nil` before the first step.
        var lastStep: (step: Int, name: String)?
        /// What was sent before it stopped (the states of the steps it finished).
        var partial: Answer
        /// The error that reports it.
        var error: CLIError
    }

    /// What running a host came to: its answer, or a stop without one.
    enum Exchange {
        case answered(Answer)
        case stopped(Stop)
    }

    var host: HostCommand
    var timeout: Double
    /// Called with the step a host is replaying, every time it is seen to move (a few times a second).
    var onStep: ((Int, String) -> Void)?
    /// Variables set (a value) or removed (`nil`) in the host's environment, over the CLI's own.
    var environment: [String: String?] = [:]

    /// Starts the host with `request`, feeds it the session at `sessionPath`, and returns its answer.
    /// - Throws: ``CLIError`` naming what went wrong (cannot start, crashed, hung, garbage, a malformed session)
    ///   and the step and action the host had reached.
    func run(_ request: ReplayHostRequest, sessionPath: String, displayName: String) throws(CLIError) -> Answer {
        switch try exchange(request, sessionPath: sessionPath, displayName: displayName) {
        case .answered(let answer): return answer
        case .stopped(let stop): throw stop.error
        }
    }

    /// Like ``run(_:sessionPath:displayName:)``, but a host that stops without an answer (a crashing reducer) is
    /// returned as a ``Stop`` with the step it was at, not thrown.
    /// - Throws: ``CLIError`` for every other failure.
    func exchange(_ request: ReplayHostRequest, sessionPath: String, displayName: String) throws(CLIError) -> Exchange {
        let input = try SessionInput(file: sessionPath, displayName: displayName).open()
        defer { try? input.close() }
        let running = try RunningHost(host, request: request, slots: 1, input: input, environment: environment)
        var answer = Answer(stores: [], result: HostMessage.Result(), lines: [])
        while true {
            let message: HostMessage
            switch try running.next(timeout: timeout, onStep: onStep) {
            case .stopped(let how):
                let entry = running.board().first ?? nil
                let lastStep = entry.flatMap { $0.step > 0 ? (step: $0.step, name: $0.name) : nil }
                return .stopped(Stop(lastStep: lastStep, partial: answer, error: running.stopError(how, at: entry)))
            case .hung:
                throw running.hangError(at: running.board().first ?? nil, timeout: timeout)
            case .garbage(let text):
                throw running.garbageError(text, at: running.board().first ?? nil)
            case .hello(let stores):
                answer.stores = stores
                continue
            case .invalid(let error):
                throw running.failure("sent \(error)", at: running.board().first ?? nil)
            case .message(let sent, _):
                message = sent
            }
            switch message {
            case .line(let line):
                answer.lines.append(line)
            case .state(let replayed):
                answer.states.append(ReplayedState(step: replayed.seq, name: replayed.name, state: replayed.state))
            case .result(let result):
                answer.result = result
                return .answered(answer)
            case .error(let failure):
                throw CLIError(.session, failure.message, file: displayName, line: failure.line)
            case .hello:
                throw running.failure("sent a second 'hello' line", at: running.board().first ?? nil)
            }
        }
    }
}

extension HostClient {
    /// Lines of a crashed host's stderr shown from its start (where `Fatal error: ...` and the source location are)
    /// and from its end (the end of a backtrace).
    static let stderrHeadLines = 10
    static let stderrTailLines = 10

    /// `lines` in full when they are few; else the first and last lines with the number omitted between them.
    static func headAndTail(of lines: [String]) -> String {
        guard lines.count > stderrHeadLines + stderrTailLines else { return lines.joined(separator: "\n") }
        let omitted = lines.count - stderrHeadLines - stderrTailLines
        return (lines.prefix(stderrHeadLines) + ["... (\(omitted) lines omitted)"] + lines.suffix(stderrTailLines))
            .joined(separator: "\n")
    }

    /// "at step 3 (addTodo)", or "before the first step".
    static func whereItWas(_ entry: ProgressBoard.Entry?) -> String {
        guard let entry, entry.step > 0 else { return "before the first step" }
        return "at step \(entry.step) (\(entry.name.escapingControls()))"
    }
}
