import Foundation
import StoreKitCore
import StoreKitReplay

/// Runs a replay host for one request and reads its answer, never hanging and never crashing with it.
struct HostClient {
    /// What a host answered.
    struct Answer {
        /// The stores the host can replay.
        var stores: [String]
        /// The `result` line.
        var result: JSONValue
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
        guard let input = FileHandle(forReadingAtPath: sessionPath) else {
            throw CLIError(.session, "cannot read the session (no such file, or not readable)", file: displayName)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec \(host.command) \"$@\"", "replay-host", "--request", request.jsonValue.canonicalString]
        process.currentDirectoryURL = URL(fileURLWithPath: host.directory)
        process.standardInput = input
        if !environment.isEmpty {
            var variables = ProcessInfo.processInfo.environment
            for (name, value) in environment { variables[name] = value }
            process.environment = variables
        }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw CLIError(.host, "cannot start the replay host '\(host.command)' (from \(host.origin)): \(error)")
        }
        let lines = LineQueue(output.fileHandleForReading)
        let hostErrors = LineQueue(errors.fileHandleForReading)
        defer {
            if process.isRunning { process.terminate() }
            try? input.close()
        }
        var answer = Answer(stores: [], result: .null, lines: [])
        var lastStep: (Int, String)?
        func whereItWas() -> String {
            guard let lastStep else { return "before the first step" }
            return "at step \(lastStep.0) (\(lastStep.1))"
        }
        func hostSaid() -> String {
            let text = Self.headAndTail(of: hostErrors.remaining())
            return text.isEmpty ? "" : "; its stderr said:\n\(text)"
        }
        var sawHello = false
        while true {
            switch lines.next(timeout: timeout) {
            case .timedOut:
                process.terminate()
                throw CLIError(.host, "the replay host hung \(whereItWas()): no answer for \(Int(timeout)) s (stopped it; raise --timeout if replay is just slow)")
            case .ended:
                process.waitUntilExit()
                let how = process.terminationReason == .uncaughtSignal
                    ? "crashed (signal \(process.terminationStatus))" : "exited with status \(process.terminationStatus)"
                return .stopped(
                    Stop(
                        lastStep: lastStep.map { (step: $0.0, name: $0.1) }, partial: answer,
                        error: CLIError(.host, "the replay host \(how) \(whereItWas()) without an answer\(hostSaid())")))
            case .line(let text):
                guard let message = try? JSONValue(parsing: text), let kind = message["kind"]?.stringValue else {
                    process.terminate()
                    throw CLIError(.host, "the replay host printed something that is not the replay-host protocol \(whereItWas()): '\(text.prefix(120))'")
                }
                if !sawHello {
                    guard kind == "hello", message["protocol"]?.integerValue == Int64(ReplayHost.protocolVersion) else {
                        process.terminate()
                        throw CLIError(.host, "the replay host does not speak replay-host protocol \(ReplayHost.protocolVersion): its first line was '\(text.prefix(120))'")
                    }
                    sawHello = true
                    answer.stores = message["stores"]?.arrayValue?.compactMap(\.stringValue) ?? []
                    continue
                }
                switch kind {
                case "step":
                    let step = (Int(message["seq"]?.integerValue ?? 0), message["name"]?.stringValue ?? "?")
                    lastStep = step
                    onStep?(step.0, step.1)
                case "line":
                    answer.lines.append(message["line"] ?? .null)
                case "state":
                    guard let step = message["seq"]?.integerValue, let state = message["state"] else {
                        process.terminate()
                        throw CLIError(.host, "the replay host sent a 'state' line without 'seq' or 'state' \(whereItWas())")
                    }
                    answer.states.append(ReplayedState(step: Int(step), name: lastStep?.1 ?? "?", state: state))
                case "result":
                    answer.result = message
                    return .answered(answer)
                case "error":
                    throw CLIError(
                        .session, message["message"]?.stringValue ?? "the host reported an error", file: displayName,
                        line: message["line"]?.integerValue.map { Int($0) })
                default:
                    process.terminate()
                    throw CLIError(.host, "the replay host sent an unknown message kind '\(kind)' \(whereItWas())")
                }
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
}

/// Lines read from a pipe on a background thread, handed out with a timeout.
final class LineQueue: @unchecked Sendable {
    enum Next {
        case line(String)
        case timedOut
        case ended
    }

    private let condition = NSCondition()
    private var lines: [String] = []
    private var head = 0
    private var ended = false

    init(_ handle: FileHandle) {
        let thread = Thread { [self] in
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: 0x0A) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending = Data(pending[pending.index(after: newline)...])
                    condition.withLock {
                        lines.append(line)
                        condition.signal()
                    }
                }
            }
            condition.withLock {
                if !pending.isEmpty { lines.append(String(decoding: pending, as: UTF8.self)) }
                ended = true
                condition.broadcast()
            }
        }
        thread.start()
    }

    /// The next line, or why there is none.
    func next(timeout: Double) -> Next {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while head == lines.count && !ended {
            if !condition.wait(until: deadline) { return .timedOut }
        }
        if head == lines.count { return .ended }
        let line = lines[head]
        head += 1
        if head > 4096 && head * 2 > lines.count {
            lines.removeFirst(head)
            head = 0
        }
        return .line(line)
    }

    /// Every line read so far and not handed out, after waiting up to a second for the writer to close the pipe.
    func remaining() -> [String] {
        let deadline = Date(timeIntervalSinceNow: 1)
        condition.lock()
        defer { condition.unlock() }
        while !ended && condition.wait(until: deadline) {}
        return Array(lines[head...])
    }
}
