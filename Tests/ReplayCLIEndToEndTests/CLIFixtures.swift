import Foundation

/// Runs the real built executables and cleans up what tests make.
enum CLI {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The folder the test bundle was built into, where the executables are too.
    static let binaries: URL = {
        var directory = Bundle.main.bundleURL
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("replay-cli").path),
            directory.path != "/"
        {
            directory.deleteLastPathComponent()
        }
        return directory.path == "/" ? packageRoot.appendingPathComponent(".build/debug") : directory
    }()

    static func session(_ name: String) -> String {
        packageRoot.appendingPathComponent("samples/sessions/\(name)").path
    }

    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The samples' replay host that `swift test` built beside the tests (a debug build).
    static let sampleHost = binaries.appendingPathComponent("sample-replay-host").path

    /// A run killed because it did not finish in time.
    struct TimedOut: Error, CustomStringConvertible {
        var arguments: [String]
        var seconds: Double
        var description: String { "\(arguments) did not finish within \(seconds) s and was killed" }
    }

    /// Runs `replay-cli` (or another built executable, or a program named by its absolute path) with `arguments` in
    /// the package root.
    ///
    /// In the package root, `REPLAY_HOST` names ``sampleHost`` (unless `environment` sets it): the root's
    /// `.replay.json` names the release build of the samples' host, which `swift test` does not build.
    /// - Parameters:
    ///   - stdin: Bytes for standard input, at most 16 KB; `stdinFile` instead opens a file as standard input
    ///     (`/dev/zero`).
    ///   - timeout: Seconds the process may run: past them it is killed and the run throws ``TimedOut``, so a
    ///     command that hangs fails its test instead of hanging the suite.
    static func run(
        _ arguments: [String], executable: String = "replay-cli", environment: [String: String] = [:],
        stdin: Data? = nil, stdinFile: String? = nil, directory: URL? = nil, timeout: Double = 600
    ) async throws -> Outcome {
        try await onOwnThread {
            try runBlocking(
                arguments, executable: executable, environment: environment, stdin: stdin, stdinFile: stdinFile,
                directory: directory, timeout: timeout)
        }
    }

    private static func runBlocking(
        _ arguments: [String], executable: String, environment: [String: String], stdin: Data?, stdinFile: String?,
        directory: URL?, timeout: Double
    ) throws -> Outcome {
        let process = Process()
        process.executableURL =
            executable.hasPrefix("/") ? URL(fileURLWithPath: executable) : binaries.appendingPathComponent(executable)
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? packageRoot
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        env["REPLAY_HOST"] = directory == nil ? sampleHost : nil
        env["SAMPLE_HOST_REGRESSION"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        if let stdinFile {
            process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: stdinFile))
        } else {
            process.standardInput = input
        }
        if let stdin {
            // Written before the process starts, into the pipe's buffer (16 KB at least on every platform): a write
            // after it would raise SIGPIPE in this process, which does not ignore it, if the process exited unread.
            precondition(stdin.count <= 16 * 1024, "more standard input than a pipe holds goes in a file: stdinFile")
            input.fileHandleForWriting.write(stdin)
        }
        try process.run()
        let finished = DispatchSemaphore(value: 0)
        Thread { [pid = process.processIdentifier] in
            if finished.wait(timeout: .now() + timeout) == .timedOut { kill(pid, SIGKILL) }
        }.start()
        try input.fileHandleForWriting.close()
        let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
        let stderrData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        finished.signal()
        if process.terminationReason == .uncaughtSignal, process.terminationStatus == SIGKILL {
            throw TimedOut(arguments: arguments, seconds: timeout)
        }
        return Outcome(
            status: process.terminationStatus, stdout: String(decoding: stdoutData, as: UTF8.self),
            stderr: String(decoding: stderrData, as: UTF8.self))
    }
}

/// Runs blocking work (a child process, a wait) on a thread of its own and awaits it. Never on the shared pool:
/// on Linux it is also Dispatch's global queues, and blocking work there starves the async tests beside it.
func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}

/// A temporary folder under /tmp for one test.
struct Scratch {
    let url: URL

    init() throws {
        url = URL(fileURLWithPath: "/tmp/skr-cli-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    var path: String { url.path }

    func file(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `text` to the file `name`; an `executable` one is put in place by a `cp` process.
    ///
    /// A file this process wrote can be open for writing in a child that another test forked meanwhile (until the
    /// child execs), and executing it then fails with ETXTBSY ("text file busy", exit 126). The copy's only writer
    /// is `cp`, which has exited before the file is run.
    @discardableResult
    func write(_ name: String, _ text: String, executable: Bool = false) throws -> String {
        let path = file(name)
        guard executable else {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
        let draft = path + ".draft"
        try Data(text.utf8).write(to: URL(fileURLWithPath: draft))
        let copy = Process()
        copy.executableURL = URL(fileURLWithPath: "/bin/cp")
        copy.arguments = [draft, path]
        try copy.run()
        copy.waitUntilExit()
        try FileManager.default.removeItem(atPath: draft)
        guard copy.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return path
    }

    func copy(_ session: String, as name: String) throws -> String {
        let path = file(name)
        try FileManager.default.copyItem(atPath: CLI.session(session), toPath: path)
        return path
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

extension Scratch {
    /// Writes the todos golden's first three steps as the session `name`, with `storeID` for its store id and
    /// `firstAction` for its first action's name: text from a session that tries to become something else.
    func writeTodos(_ name: String, storeID: String, firstAction: String) throws -> String {
        let lines = try String(contentsOfFile: CLI.session("todos-basic.jsonl"), encoding: .utf8).split(separator: "\n")
        func json(_ text: String) throws -> String { String(decoding: try JSONEncoder().encode(text), as: UTF8.self) }
        let session = [
            lines[0].replacingOccurrences(of: #""storeId":"todos""#, with: #""storeId":\#(try json(storeID))"#),
            lines[1].replacingOccurrences(of: #""name":"addTodo""#, with: #""name":\#(try json(firstAction))"#),
        ] + lines[2...3].map(String.init)
        return try write(name, session.joined(separator: "\n") + "\n")
    }
}
