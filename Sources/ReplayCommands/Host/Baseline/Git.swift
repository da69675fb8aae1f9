import Foundation
import StoreKitReplay
import StoreKitSystem

/// The one way `replay-cli` runs git: `git -C <directory> <arguments>` with no terminal and no pager, its output
/// read whole, and a failure reported with the command and what git said.
struct Git {
    /// The folder git runs in (`-C`).
    var directory: String

    /// What a git command printed and how it ended.
    struct Result {
        /// Standard output, with its last line break removed.
        var output: String
        /// Standard error, trimmed.
        var error: String
        /// Whether it exited with status 0.
        var succeeded: Bool
    }

    /// Runs git with `arguments`; `nil` when git cannot be started.
    func result(_ arguments: [String]) -> Result? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", directory] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["GIT_TERMINAL_PROMPT"] = "0"
        environment["GIT_PAGER"] = "cat"
        process.environment = environment
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
        // Standard error is read beside standard output so that neither pipe fills while the other is read.
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
        var text = String(decoding: data, as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        return Result(
            output: text,
            error: String(decoding: errorText.withLock { $0 }, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines),
            succeeded: process.terminationReason == .exit && process.terminationStatus == 0)
    }

    /// The output of git with `arguments`; `nil` when it fails.
    func output(_ arguments: [String]) -> String? {
        guard let result = result(arguments), result.succeeded else { return nil }
        return result.output
    }

    /// The output of git with `arguments`.
    /// - Parameter doing: What the command is for, as the error says it: "cannot <doing>".
    /// - Throws: ``CLIError`` naming the command and git's message when it cannot start or fails.
    func run(_ arguments: [String], doing: String) throws(CLIError) -> String {
        let command = (["git", "-C", directory] + arguments).joined(separator: " ")
        guard let result = result(arguments) else {
            throw CLIError(.host, "cannot \(doing): git could not be started ('\(command)')")
        }
        guard result.succeeded else {
            let said = result.error.isEmpty ? "" : ": \(result.error.escapingControls())"
            throw CLIError(.host, "cannot \(doing): '\(command)' failed\(said)")
        }
        return result.output
    }
}
