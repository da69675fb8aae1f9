import Foundation
import StoreKitCore
import StoreKitSystem

/// A release-build `replayd` started for a benchmark on a private temporary folder.
final class BenchmarkDaemon {
    let folder: String
    private(set) var process = Process()
    var socket: String { folder + "/d.sock" }
    var sessions: String { folder + "/sessions" }

    /// Starts the `replayd` built beside this benchmark and waits until it accepts connections.
    init() throws {
        folder = "/tmp/skr-ingest-\(getpid())-\(UUID().uuidString.prefix(4))"
        try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        do {
            try start()
        } catch {
            stop()
            throw error
        }
    }

    /// Kills the daemon with SIGKILL, as a crash would, and waits until it is gone.
    func killNine() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Starts a new daemon on the same socket and folder (after ``killNine()``) and waits until it accepts
    /// connections.
    func restart() throws {
        process = Process()
        try start()
    }

    private func start() throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("replayd")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw DaemonError.missing(binary.path)
        }
        process.executableURL = binary
        process.arguments = ["--socket", socket, "--dir", sessions, "--log-level", "warn"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if let probe = try? Syscall.makeUnixSocket() {
                defer { try? Syscall.close(probe) }
                if (try? Syscall.connect(probe, to: UnixSocketAddress(path: socket))) != nil { return }
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        killNine()
        throw DaemonError.notListening(binary.path)
    }

    /// Why the daemon could not be used.
    enum DaemonError: Error, CustomStringConvertible {
        /// No `replayd` at this path, beside the benchmark.
        case missing(String)
        /// The `replayd` at this path did not accept connections within 30 seconds.
        case notListening(String)

        var description: String {
            switch self {
            case .missing(let path):
                "no replayd at \(path), beside this benchmark: build it with "
                    + "'swift build -c release --product replayd' (Benchmarks/run.sh does)"
            case .notListening(let path): "the replayd at \(path) did not accept connections within 30 s"
            }
        }
    }

    /// The daemon's peak resident memory in bytes (Linux `VmHWM`), or nil where it cannot be read.
    func peakMemory() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return kilobytes * 1024
    }

    /// The CPU time, user and system, the daemon has used so far, in seconds (Linux `/proc`), or nil where it
    /// cannot be read.
    func cpuSeconds() -> (user: Double, system: Double)? {
        guard let stat = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
            let afterName = stat.split(separator: ")").last
        else { return nil }
        // After the name: state, then 10 fields, then utime and stime, in clock ticks.
        let fields = afterName.split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return (user / ticks, system / ticks)
    }

    /// Stops the daemon and removes its folder.
    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: folder)
    }
}
