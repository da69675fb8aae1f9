import Foundation
import StoreKitSystem

/// The one way `replay-cli` runs a short-lived tool (git, xcrun) and waits for it: an executable and an argument
/// vector, never a shell, with no terminal for input, its standard output and error read whole side by side so that
/// neither pipe fills while the other is read.
enum ChildProcess {
    /// How a run ended.
    struct Run {
        /// Standard output.
        var output: String
        /// Standard error.
        var error: String
        /// Whether it exited with status 0.
        var succeeded: Bool
    }

    /// Runs `executable` with `arguments` and waits for it.
    /// - Parameter environment: Variables set over this process's own.
    /// - Returns: How it ended, or `nil` when it could not be started.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) -> Run? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, set in set }
        }
        process.standardInput = FileHandle.nullDevice
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        do {
            try process.run()
        } catch {
            return nil
        }
        let errorText = Locked(Data())
        let errorRead = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let data = error.fileHandleForReading.readDataToEndOfFile()
            errorText.withLock { $0 = data }
            errorRead.signal()
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        errorRead.wait()
        process.waitUntilExit()
        return Run(
            output: String(decoding: data, as: UTF8.self), error: String(decoding: errorText.withLock { $0 }, as: UTF8.self),
            succeeded: process.terminationReason == .exit && process.terminationStatus == 0)
    }
}
