import Foundation
import StoreKitCore
import StoreKitReplay
import StoreKitSystem

/// One replay host process, the connection under ``ReplayHostClient``: started with a request and a
/// ``ProgressBoard`` of its own, read line by line as protocol messages, and watched on its board while it is silent,
/// so that it is stopped when it hangs and a crash names its step.
final class HostProcess {
    /// What the host did next.
    enum Next {
        /// Its `hello` line: the stores it can replay.
        case hello([String])
        /// A protocol message after the hello, and its line (to quote when a part of it does not read).
        case message(HostMessage, line: [UInt8])
        /// A JSON line with a `kind` that is not a message of this protocol (an unknown kind, a field that does not
        /// fit); it is not stopped.
        case invalid(HostProtocolError)
        /// It ended its output and exited: "crashed (signal 11)", "exited with status 3".
        case stopped(String)
        /// It stayed silent, its board still, for the whole timeout; it is stopped.
        case hung
        /// It printed a line that is not the protocol (quoted); it is stopped.
        case garbage(String)
    }

    private let host: HostCommand
    private let process = Process()
    private let lines: LineQueue
    private let errors: LineQueue
    private let boardPath: String
    private var sawHello = false
    /// What the board said when it last changed, and when that was.
    private var lastBoard: [UInt8] = []
    private var lastMove = Date()

    /// Starts `host` with `request` (given a board of `slots` slots), `input` as its standard input.
    /// - Throws: ``CLIError`` when the board cannot be made or the host cannot be started.
    init(
        _ host: HostCommand, request: ReplayHostRequest, slots: Int, input: FileHandle?, environment: [String: String?]
    ) throws(CLIError) {
        self.host = host
        boardPath = FileManager.default.temporaryDirectory
            .appendingPathComponent("replay-cli-board-\(getpid())-\(UUID().uuidString.prefix(8))").path
        guard
            FileManager.default.createFile(
                atPath: boardPath, contents: Data(count: slots * ProgressBoard.slotSize), attributes: [.posixPermissions: 0o600])
        else { throw CLIError(.output, "cannot make the replay host's progress board \(boardPath)") }
        var request = request
        request.progress = boardPath
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec \(host.command) \"$@\"", "replay-host", "--request", request.jsonValue.canonicalString]
        process.currentDirectoryURL = URL(fileURLWithPath: host.directory)
        process.standardInput = input ?? FileHandle.nullDevice
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
            try? FileManager.default.removeItem(atPath: boardPath)
            throw CLIError(.host, "cannot start the replay host '\(host.command)' (from \(host.origin)): \(error)")
        }
        lines = LineQueue(output.fileHandleForReading)
        self.errors = LineQueue(errors.fileHandleForReading)
    }

    deinit {
        if process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(atPath: boardPath)
    }

    /// The next thing the host did. While it is silent, its board is read a few times a second: a change (a new
    /// step) shows it is not hung, and is passed to `onStep`.
    /// - Throws: ``CLIError`` when the host greets in another protocol version (it is stopped).
    func next(timeout: Double, onStep: ((Int, String) -> Void)? = nil) throws(CLIError) -> Next {
        let poll = min(0.2, timeout)
        lastMove = Date()
        while true {
            switch lines.next(timeout: poll) {
            case .timedOut:
                let bytes = readBoard()
                if bytes != lastBoard {
                    lastBoard = bytes
                    lastMove = Date()
                    if let onStep, let entry = ProgressBoard.entries(in: bytes).first ?? nil, entry.step > 0 {
                        onStep(entry.step, entry.name)
                    }
                } else if Date().timeIntervalSince(lastMove) >= timeout {
                    process.terminate()
                    return .hung
                }
            case .ended:
                process.waitUntilExit()
                return .stopped(
                    process.terminationReason == .uncaughtSignal
                        ? "crashed (signal \(process.terminationStatus))" : "exited with status \(process.terminationStatus)")
            case .line(let bytes):
                let message: HostMessage?
                do throws(HostProtocolError) {
                    message = try HostMessage(line: bytes)
                } catch {
                    if error.problem == .notProtocol {
                        process.terminate()
                        return .garbage(error.excerpt)
                    }
                    if sawHello { return .invalid(error) }
                    message = nil
                }
                if sawHello, let message { return .message(message, line: bytes) }
                // The first line must be a hello of this version (another version does not read as one).
                guard case .hello(let stores)? = message else {
                    process.terminate()
                    throw CLIError(
                        .host,
                        "the replay host does not speak replay-host protocol \(ReplayHost.protocolVersion): its first line was '\(HostProtocolError.excerpt(of: bytes))'")
                }
                sawHello = true
                return .hello(stores)
            }
        }
    }

    /// What the board's slots say now.
    func board() -> [ProgressBoard.Entry?] { ProgressBoard.entries(in: readBoard()) }

    /// The host's standard error, head and tail, as the end of a message; empty when it printed nothing.
    func stderrNote() -> String {
        let text = Self.headAndTail(of: errors.remaining())
        return text.isEmpty ? "" : "; its stderr said:\n\(text)"
    }

    /// The error for a host that stopped (`how`) at `entry` without an answer.
    func stopError(_ how: String, at entry: ProgressBoard.Entry?) -> CLIError {
        CLIError(.host, "the replay host \(how) \(Self.whereItWas(entry)) without an answer\(stderrNote())")
    }

    /// The error for a host that hung at `entry`.
    func hangError(at entry: ProgressBoard.Entry?, timeout: Double) -> CLIError {
        CLIError(
            .host,
            "the replay host hung \(Self.whereItWas(entry)): no answer for \(Int(timeout)) s (stopped it; raise --timeout if replay is just slow)")
    }

    /// The error for a host that printed `text`, not the protocol, at `entry`.
    func garbageError(_ text: String, at entry: ProgressBoard.Entry?) -> CLIError {
        CLIError(.host, "the replay host printed something that is not the replay-host protocol \(Self.whereItWas(entry)): '\(text)'")
    }

    /// Stops the host, and the error for what it did (`what`) at `entry`.
    func failure(_ what: String, at entry: ProgressBoard.Entry?) -> CLIError {
        process.terminate()
        return CLIError(.host, "the replay host \(what) \(Self.whereItWas(entry))")
    }

    private func readBoard() -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: boardPath) else { return [] }
        defer { try? handle.close() }
        return Array((try? handle.readToEnd()) ?? Data())
    }
}

extension HostProcess {
    /// Lines of a crashed host's stderr shown from its start (where `Fatal error: ...` and the source location are)
    /// and from its end (the end of a backtrace).
    static let stderrHeadLines = 10
    /// Lines of a crashed host's stderr shown from its end.
    static let stderrTailLines = 10

    /// `lines` in full when they are few; else the first and last lines with the number omitted between them.
    static func headAndTail(of lines: [String]) -> String {
        guard lines.count > stderrHeadLines + stderrTailLines else { return lines.joined(separator: "\n") }
        let omitted = lines.count - stderrHeadLines - stderrTailLines
        return (lines.prefix(stderrHeadLines) + ["... (\(omitted) lines omitted)"] + lines.suffix(stderrTailLines))
            .joined(separator: "\n")
    }

    /// "at step 3 (addTodo)", "after step 9 (sync), ending the 4 effect runs still in flight (3 ended, 0 judged)",
    /// or "before the first step".
    static func whereItWas(_ entry: ProgressBoard.Entry?) -> String {
        guard let entry, entry.step > 0 else { return "before the first step" }
        let step = "step \(entry.step) (\(entry.name.escapingControls()))"
        guard let ending = entry.ending else { return "at " + step }
        return "after \(step), ending the \(ending.inFlight) effect runs still in flight (\(ending.ended) ended, \(ending.judged) judged)"
    }
}
