import CommandLineOptions
import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// `replay-cli verify`: the reader's strict reading, every problem listed instead of the first.
///
/// Exit 0 when every file is valid (warnings allowed): exactly when every other command reads it; exit 2 when a file
/// cannot be read or holds a line the reader refuses, each listed as `file:line: the reader's reason`.
enum VerifyCommand: Command {
    static let command = CommandDescription(
        name: "replay-cli verify",
        abstract: "Check session files as every command reads them, listing every problem: fields, sequence numbers, gaps, patches, truncation.",
        arguments: [ArgumentDeclaration("<session>", help: "session files (.jsonl), or '-' for standard input", isRepeating: true)],
        options: [SharedOptions.json.declaration])

    static func run(_ parsed: ParsedCommandLine, _ context: CommandContext) throws(CLIError) -> ExitStatus {
        var status = ExitStatus.ok
        var documents: [JSONValue] = []
        let terminal = parsed.isSet(SharedOptions.json) ? context.terminal.withoutProgress : context.terminal
        for argument in parsed.positionals {
            let name = argument == "-" ? "<stdin>" : argument
            // A file counts in megabytes of its size, so the line can say how long is left; standard input in lines.
            let inMegabytes = argument != "-"
            let meter = ProgressMeter(terminal, "verify: read", unit: inMegabytes ? "MB of \(name)" : "lines of \(name)", total: nil)
            var lookedAt: (lines: Int, bytes: Int64) = (0, 0)
            let result = SessionVerifier.verify(path: argument) { progress in
                guard progress.lines - lookedAt.lines >= Self.linesBetweenProgress
                    || progress.bytesRead - lookedAt.bytes >= Self.bytesBetweenProgress
                else { return }
                lookedAt = (progress.lines, progress.bytesRead)
                if inMegabytes {
                    meter.advance(to: Int(progress.bytesRead >> 20), of: progress.totalBytes.map { Int($0 >> 20) })
                } else {
                    meter.advance(to: progress.lines, of: nil)
                }
            }
            meter.finish()
            if !result.isValid { status = .trouble }
            documents.append(.object([
                "session": .string(name), "valid": .bool(result.isValid), "readable": .bool(result.isReadable),
                "lines": .integer(Int64(result.lines)), "actions": .integer(Int64(result.actions)),
                "problems": .array(result.problems.map { .object(["line": .integer(Int64($0.line)), "message": .string($0.message), "warning": .bool($0.isWarning)]) }),
            ]))
            guard !parsed.isSet(SharedOptions.json) else { continue }
            if result.isValid {
                context.terminal.out(context.terminal.green("ok"), " \(name): \(result.lines) lines, \(result.actions) actions")
            } else {
                context.terminal.out(context.terminal.red("invalid"), " \(name)")
            }
            for problem in result.problems {
                let label = problem.isWarning ? context.terminal.yellow("warning") : context.terminal.red("error")
                context.terminal.out("  ", label, " \(problem.line > 0 ? "\(name):\(problem.line)" : name): \(problem.message)")
            }
        }
        if parsed.isSet(SharedOptions.json) { context.terminal.out(JSONValue.array(documents).prettyString()) }
        return status
    }

    /// How many lines, or bytes, are read between two looks at the progress line's clock: short lines by their
    /// number, long ones by their size.
    private static var linesBetweenProgress: Int { 1024 }
    private static var bytesBetweenProgress: Int64 { 4 << 20 }
}
