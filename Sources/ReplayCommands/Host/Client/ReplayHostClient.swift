import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// The command line's end of the replay-host protocol (StoreKitReplay's `ReplayHost` is the other end): the one
/// way a command talks to a replay host. It starts the host as a ``HostProcess`` with one request and holds the
/// conversation, never hanging and never crashing with the host.
///
/// Two conversations: ``exchange(_:session:)`` feeds one session to the host on its standard input and collects its
/// answer (the `states` and `rerecord` requests); ``check(_:_:jobs:onStep:onChecked:)`` has one host process open and
/// check many sessions itself (the `check` request).
struct ReplayHostClient {
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

        /// The re-recorded session the `line` lines make: each line canonical JSON and a line break.
        var sessionBytes: [UInt8] {
            var bytes: [UInt8] = []
            for line in lines {
                line.writeCanonical(to: &bytes)
                bytes.append(0x0A)
            }
            return bytes
        }
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

    /// What feeding a host one session came to: its answer, or a stop without one.
    enum Exchange {
        /// The host answered.
        case answered(Answer)
        /// The host stopped before answering.
        case stopped(Stop)
    }

    /// The host to run.
    var host: HostCommand
    /// Seconds a silent host (its progress board still) is given before it is stopped.
    var timeout: Double
    /// Variables set (a value) or removed (`nil`) in the host's environment, over the CLI's own.
    var environment: [String: String?] = [:]

    /// Starts the host with `request`, feeds it `session`, and returns its answer.
    /// - Throws: ``CLIError`` naming what went wrong (cannot start, crashed, hung, garbage, a malformed session)
    ///   and the step and action the host had reached.
    func answer(_ request: ReplayHostRequest, session: SessionInput) throws(CLIError) -> Answer {
        switch try exchange(request, session: session) {
        case .answered(let answer): return answer
        case .stopped(let stop): throw stop.error
        }
    }

    /// Like ``answer(_:session:)``, but a host that stops without an answer (a crashing reducer) is returned as a
    /// ``Stop`` with the step it was at, not thrown.
    /// - Throws: ``CLIError`` for every other failure.
    func exchange(_ request: ReplayHostRequest, session: SessionInput) throws(CLIError) -> Exchange {
        let input = try session.open()
        defer { try? input.close() }
        let process = try HostProcess(host, request: request, slots: 1, input: input, environment: environment)
        var answer = Answer(stores: [], result: HostMessage.Result(), lines: [])
        while true {
            let message: HostMessage
            switch try process.next(timeout: timeout) {
            case .stopped(let how):
                let entry = process.board().first ?? nil
                let lastStep = entry.flatMap { $0.step > 0 ? (step: $0.step, name: $0.name) : nil }
                return .stopped(Stop(lastStep: lastStep, partial: answer, error: process.stopError(how, at: entry)))
            case .hung:
                throw process.hangError(at: process.board().first ?? nil, timeout: timeout)
            case .garbage(let text):
                throw process.garbageError(text, at: process.board().first ?? nil)
            case .hello(let stores):
                answer.stores = stores
                continue
            case .invalid(let error):
                throw process.failure("sent \(error)", at: process.board().first ?? nil)
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
                throw CLIError(.session, failure.message, file: session.displayName, line: failure.line)
            case .hello:
                throw process.failure("sent a second 'hello' line", at: process.board().first ?? nil)
            }
        }
    }
}
