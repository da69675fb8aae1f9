import Foundation
import StoreKitSystem

/// The one way replayd runs the `--on-finish` command: `/bin/sh -c '<command> "$@"' replayd-on-finish <path>`, so
/// the command is the operator's own shell command line and the session's path reaches it as its last argument,
/// quoted by the shell, never spliced into the command's text.
///
/// The command reads `input` on its standard input; its standard output is discarded and the end of its standard
/// error kept for the log. A command still running at its deadline, or when the daemon stops, is sent SIGTERM.
enum HookProcess {
    /// How one run ended.
    enum Outcome: Equatable {
        /// It exited with status 0.
        case succeeded
        /// It exited with another status, or was killed by a signal (status 128 + the signal, as a shell says).
        case failed(status: Int32)
        /// It ran past its deadline and was terminated.
        case timedOut
        /// The daemon stopped while it ran, and it was terminated.
        case interrupted
        /// It could not be started.
        case notStarted(String)
    }

    /// How one run ended, and the last bytes it wrote to standard error.
    struct Run {
        /// How it ended.
        var outcome: Outcome
        /// The end of its standard error (at most ``keptErrorBytes``), as text.
        var errorTail: String
    }

    /// How much of the command's standard error the log keeps.
    static let keptErrorBytes = 2000

    /// Runs `command` with `path` as its last argument and `input` on its standard input, and waits for it.
    /// - Parameters:
    ///   - environment: Variables set over the daemon's own.
    ///   - timeout: How long it may run before it is killed.
    ///   - stopping: Asked every 50 ms; when it says true the command is terminated.
    static func run(
        _ command: String, path: String, input: [UInt8], environment: [String: String], timeout: Duration,
        stopping: () -> Bool
    ) -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command + #" "$@""#, "replayd-on-finish", path]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, set in set }
        // Its standard input is a socket, not a pipe: a command that exits without reading it makes the write fail
        // with EPIPE, where a pipe would raise SIGPIPE in whatever process runs this and does not ignore it.
        let inputEnds: (ours: Int32, its: Int32)
        do {
            inputEnds = try Syscall.makeSocketPair()
        } catch {
            return Run(outcome: .notStarted("\(error)"), errorTail: "")
        }
        let standardError = Pipe()
        process.standardInput = FileHandle(fileDescriptor: inputEnds.its, closeOnDealloc: false)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = standardError
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        do {
            try process.run()
        } catch {
            try? Syscall.close(inputEnds.ours)
            try? Syscall.close(inputEnds.its)
            return Run(outcome: .notStarted("\(error)"), errorTail: "")
        }
        // Only the command holds its end now, so that its exit ends the write.
        try? Syscall.close(inputEnds.its)
        // Fed and drained on threads of their own, so that neither a command that reads no input nor one that
        // writes much to standard error can make the other side wait.
        let tail = Locked([UInt8]())
        let drained = DispatchSemaphore(value: 0)
        Thread { [ours = inputEnds.ours] in
            try? Syscall.nameCurrentThread("hook stdin")
            try? Syscall.sendAll(ours, input, subject: "the on-finish command's standard input")
            try? Syscall.close(ours)
        }.start()
        Thread {
            try? Syscall.nameCurrentThread("hook stderr")
            let reader = standardError.fileHandleForReading
            while let chunk = try? reader.read(upToCount: 4096), !chunk.isEmpty {
                tail.withLock { kept in
                    kept += chunk
                    if kept.count > keptErrorBytes { kept.removeFirst(kept.count - keptErrorBytes) }
                }
            }
            drained.signal()
        }.start()
        let deadline = MonotonicClock.nanoseconds() + UInt64(timeout.seconds * 1e9)
        var killedFor: Outcome?
        while exited.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
            guard killedFor == nil else { continue }
            if stopping() {
                killedFor = .interrupted
            } else if MonotonicClock.nanoseconds() >= deadline {
                killedFor = .timedOut
            }
            if killedFor != nil { process.terminate() }
        }
        // A child the command left behind may keep standard error open; its tail is not worth waiting for.
        _ = drained.wait(timeout: .now() + .seconds(1))
        let errorTail = String(decoding: tail.withLock { $0 }, as: UTF8.self)
        if let killedFor { return Run(outcome: killedFor, errorTail: errorTail) }
        let status = process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
        return Run(outcome: status == 0 ? .succeeded : .failed(status: status), errorTail: errorTail)
    }
}
