import Foundation
import StoreKitCore
import StoreKitReplay
import StoreKitSystem
import Testing

/// Waits until `condition` holds, checking every 20 ms without holding a thread of the shared concurrency pool
/// (so long end-to-end waits never starve the async tests running beside them); fails after `timeout` seconds.
@discardableResult
func waitUntil(
    _ what: String, timeout: Double = 120, sourceLocation: SourceLocation = #_sourceLocation, _ condition: () throws -> Bool
) async rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    // The condition is checked once more after the deadline: on a busy machine this task may next run long after
    // it, when the condition has long been true.
    while true {
        if try condition() { return true }
        if Date() >= deadline { break }
        try? await Task.sleep(for: .milliseconds(20))
    }
    Issue.record("timed out after \(timeout) s waiting until \(what)", sourceLocation: sourceLocation)
    return false
}

/// Runs blocking work (a child process, a wait) on a thread of its own and awaits it. Never on the shared pool:
/// on Linux it is also Dispatch's global queues, and blocking work there starves the async tests beside it.
func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}

/// Blocking work (streaming clients) on dedicated threads. Never on Dispatch's global queues: on Linux they are
/// the same threads the async tests run on, and long blocking work there starves those tests.
final class Workers: @unchecked Sendable {
    private let group = DispatchGroup()

    /// Starts `body(index)` on `count` threads at once.
    init(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        for index in 0..<count {
            group.enter()
            let group = group
            Thread {
                body(index)
                group.leave()
            }.start()
        }
    }

    /// Waits until every thread has finished, without holding a thread meanwhile.
    func finished() async {
        await withCheckedContinuation { continuation in group.notify(queue: .global()) { continuation.resume() } }
    }
}

/// A private temporary folder under a short /tmp path (socket paths must fit `sun_path`), removed by ``remove()``.
struct TemporaryFolder {
    let path: String

    init() throws {
        path = "/tmp/rdt-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(
            atPath: path, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    }

    var socket: String { path + "/d.sock" }
    var sessions: String { path + "/sessions" }

    func remove() { try? FileManager.default.removeItem(atPath: path) }

    /// The session files stored so far, by name.
    func sessionFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: sessions)) ?? []).filter { $0.hasSuffix(".jsonl") }.sorted()
    }

    /// The bytes in every stored session file, cheaply (no file is read).
    func storedBytes() throws -> Int {
        try sessionFiles().reduce(0) { $0 + (try Syscall.status(sessions + "/" + $1)?.size ?? 0) }
    }

    /// The lines of a stored session file.
    func lines(of name: String) -> [String] {
        let text = (try? String(contentsOfFile: sessions + "/" + name, encoding: .utf8)) ?? ""
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }
}

/// The built executables, found next to the test bundle.
enum Executables {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static let directory: URL = {
        var directory = Bundle.main.bundleURL
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("replayd").path),
            directory.path != "/"
        {
            directory.deleteLastPathComponent()
        }
        return directory.path == "/" ? packageRoot.appendingPathComponent(".build/debug") : directory
    }()

    static func url(_ name: String) -> URL { directory.appendingPathComponent(name) }

    /// Runs an executable to completion and returns its status and standard error.
    static func run(_ name: String, _ arguments: [String]) async throws -> (status: Int32, stderr: String) {
        try await onOwnThread { try runBlocking(name, arguments) }
    }

    private static func runBlocking(_ name: String, _ arguments: [String]) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = url(name)
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

/// A real `replayd` process on a temporary socket and directory, its log kept in a file.
final class DaemonProcess {
    /// How long starting and stopping the daemon, or a recorder's reconnect to it, may take: generous, because a
    /// whole test run on a busy 2-core machine (load 10 to 20), or under ThreadSanitizer, was seen to take over 30 s
    /// for what takes milliseconds alone, and a recorder's reconnect after a restart once over 120 s while two
    /// end-to-end tests compiled packages beside it.
    static let processTimeout = 300.0

    let folder: TemporaryFolder
    let process = Process()
    let logPath: String

    /// Starts replayd and waits until its socket accepts connections.
    /// - Parameters:
    ///   - openFiles: Limits on open files to start it with (through the shell's `ulimit`); the test's own when
    ///     `nil`.
    ///   - environment: Variables set over the test's own environment for the daemon.
    init(
        folder: TemporaryFolder, socket: String? = nil, arguments: [String] = [], logName: String = "replayd.log",
        openFiles: (soft: Int, hard: Int)? = nil, environment: [String: String] = [:]
    ) async throws {
        let socket = socket ?? folder.socket
        self.folder = folder
        logPath = folder.path + "/" + logName
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let replaydArguments = ["--socket", socket, "--dir", folder.sessions, "--log-level", "debug"] + arguments
        if let openFiles {
            // The soft limit first, so that it is never above the hard one; `exec` keeps the process id.
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = [
                "-c", #"ulimit -Sn \#(openFiles.soft) && ulimit -Hn \#(openFiles.hard) && exec "$0" "$@""#,
                Executables.url("replayd").path,
            ] + replaydArguments
        } else {
            process.executableURL = Executables.url("replayd")
            process.arguments = replaydArguments
        }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, set in set }
        }
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        await waitUntil("replayd listens on \(socket)", timeout: Self.processTimeout) {
            (try? RawClient(socket: socket)) != nil || !process.isRunning
        }
    }

    /// The daemon's log so far.
    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// The log's entries as JSON objects.
    var entries: [[String: Any]] {
        log.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// How many log entries have `event`.
    func count(_ event: String) -> Int { entries(event).count }

    /// The log entries that have `event`.
    func entries(_ event: String) -> [[String: Any]] { entries.filter { $0["event"] as? String == event } }

    /// Sends SIGTERM and waits for the exit status.
    @discardableResult
    func stop() async -> Int32 {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        await waitUntil("replayd exits", timeout: Self.processTimeout) { !process.isRunning }
        return process.terminationStatus
    }

    /// Kills the daemon with SIGKILL and waits for it to be gone.
    func kill9() async {
        kill(process.processIdentifier, SIGKILL)
        await waitUntil("replayd dies", timeout: Self.processTimeout) { !process.isRunning }
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}

/// A test client speaking the wire protocol with raw lines; each instance is used by one thread at a time.
final class RawClient: @unchecked Sendable {
    let fd: Int32
    private var received: [UInt8] = []
    private var closed = false

    /// Connects to the daemon's socket.
    init(socket: String) throws {
        fd = try Syscall.makeUnixSocket()
        try Syscall.setTimeouts(fd, seconds: 10)
        try Syscall.connect(fd, to: UnixSocketAddress(path: socket))
    }

    deinit { close() }

    /// Connects and starts recording `session` of the counter store: sends its header and reads the reply.
    static func startingSession(_ session: String, socket: String) throws -> RawClient {
        let client = try RawClient(socket: socket)
        try client.send(line: SessionLines.header(session: session))
        _ = try client.nextReply()
        return client
    }

    /// Closes the connection now, as an app that goes away would.
    func close() {
        guard !closed else { return }
        closed = true
        try? Syscall.close(fd)
    }

    /// Whether the daemon has sent something not yet read, or closed the connection; never waits.
    var isReadable: Bool {
        var descriptor = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
        return ((try? Syscall.poll(&descriptor, timeoutMilliseconds: 0)) ?? 0) > 0
    }

    /// Sends bytes as they are.
    func send(_ bytes: [UInt8]) throws { try Syscall.sendAll(fd, bytes) }

    /// Sends one line, adding the `\n`.
    func send(line: String) throws { try send(Array(line.utf8) + [0x0A]) }

    /// Sends `lines` in one write, each ending in a `\n`.
    func send(lines: [String]) throws { try send(Array((lines.joined(separator: "\n") + "\n").utf8)) }

    /// Reads the next reply line as JSON (within the socket's 10 s timeout); `nil` when the daemon closed.
    /// - Parameter skippingPersisted: Whether to pass over the `persisted` replies (protocol 2) that confirm stored
    ///   lines, which most tests do not look at.
    func nextReply(skippingPersisted: Bool = true) throws -> [String: Any]? {
        while true {
            if let newline = received.firstIndex(of: 0x0A) {
                let line = Data(received[..<newline])
                received.removeFirst(newline + 1)
                let reply = try JSONSerialization.jsonObject(with: line) as? [String: Any]
                if skippingPersisted && reply?["kind"] as? String == "persisted" { continue }
                return reply
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = try chunk.withUnsafeMutableBytes { try Syscall.receive(fd, into: $0.baseAddress!, count: 4096) }
            guard let count, count > 0 else { return nil }
            received += chunk[..<count]
        }
    }
}

/// Lines of a made-up session for raw clients.
enum SessionLines {
    /// A header of the counter store; with `effects`, a session of format 2 whose runs of them it records.
    static func header(session: String, store: String = "counter", effects: [String] = []) -> String {
        let header = SessionHeader(
            sessionID: session, storeID: store, app: AppInfo(name: "Tests", version: "1", build: "1", schemaVersion: "1"),
            startedAt: "2026-11-22T00:00:00.000Z", host: "test", pid: 1,
            initialState: .object(["count": .integer(0), "step": .integer(1)]), effects: effects)
        return String(decoding: SessionEvent.header(header).line.dropLast(), as: UTF8.self)
    }

    static func action(_ sequence: Int) -> String {
        action(sequence, state: #"{"count":\#(sequence),"step":1}"#)
    }

    /// An action line whose state is `state`, as raw JSON text.
    static func action(_ sequence: Int, state: String) -> String {
        #"{"action":{"increment":{}},"kind":"action","name":"increment","origin":"app","seq":\#(sequence),"state":\#(state),"time":\#(Double(sequence) / 1000)}"#
    }

    /// An action line whose state is `patch` (raw JSON text) against the previous line's.
    static func action(_ sequence: Int, patch: String) -> String {
        #"{"action":{"increment":{}},"kind":"action","name":"increment","origin":"app","patch":\#(patch),"seq":\#(sequence),"time":\#(Double(sequence) / 1000)}"#
    }

    /// A gap line covering `first...last`.
    static func gap(_ first: Int, _ last: Int) -> String {
        #"{"from":\#(first),"kind":"gap","reason":"bufferFull","to":\#(last)}"#
    }

    static func end(actions: Int) -> String {
        #"{"actions":\#(actions),"dropped":0,"kind":"end","reason":"finished","time":1.5}"#
    }
}
