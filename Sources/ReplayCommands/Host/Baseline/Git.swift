import Foundation
import StoreKitReplay

/// The one way `replay-cli` runs git: `git -C <directory> <arguments>` through ``ChildProcess``, with no terminal
/// and no pager, and a failure reported with the command and what git said.
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
        guard
            let run = ChildProcess.run(
                "/usr/bin/env", ["git", "-C", directory] + arguments, environment: ["GIT_TERMINAL_PROMPT": "0", "GIT_PAGER": "cat"])
        else { return nil }
        var output = run.output
        if output.hasSuffix("\n") { output.removeLast() }
        return Result(output: output, error: run.error.trimmingCharacters(in: .whitespacesAndNewlines), succeeded: run.succeeded)
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
