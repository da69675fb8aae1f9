import StoreKitCore
import StoreKitReplay

/// `replay-cli verify`: the reader's strict reading, every problem listed instead of the first.
///
/// Exit 0 when every file is valid (warnings allowed): exactly when every other command reads it; exit 2 when a file
/// cannot be read or holds a line the reader refuses, each listed as `file:line: the reader's reason`.
enum VerifyCommand: Command {
    static let name = "verify"
    static let abstract = "Check session files as every command reads them, listing every problem: fields, sequence numbers, gaps, patches, truncation."
    static let usage = "replay-cli verify <session>... [--json]"
    static let arguments = [("<session>...", "session files (.jsonl), or '-' for standard input")]
    static let options = [CommonOptions.json]

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws(CLIError) -> Int32 {
        guard !parsed.positionals.isEmpty else { throw CLIError("verify needs at least one session", usage: usage) }
        var status: Int32 = 0
        var documents: [JSONValue] = []
        for argument in parsed.positionals {
            let result = SessionVerifier.verify(path: argument)
            let name = argument == "-" ? "<stdin>" : argument
            if !result.isValid { status = 2 }
            documents.append(.object([
                "session": .string(name), "valid": .bool(result.isValid), "readable": .bool(result.isReadable),
                "lines": .integer(Int64(result.lines)), "actions": .integer(Int64(result.actions)),
                "problems": .array(result.problems.map { .object(["line": .integer(Int64($0.line)), "message": .string($0.message), "warning": .bool($0.isWarning)]) }),
            ]))
            guard !parsed.has("--json") else { continue }
            if result.isValid {
                context.terminal.out("\(context.terminal.green("ok")) \(name): \(result.lines) lines, \(result.actions) actions")
            } else {
                context.terminal.out("\(context.terminal.red("invalid")) \(name)")
            }
            for problem in result.problems {
                let label = problem.isWarning ? context.terminal.yellow("warning") : context.terminal.red("error")
                context.terminal.out("  \(label) \(problem.line > 0 ? "\(name):\(problem.line)" : name): \(problem.message)")
            }
        }
        if parsed.has("--json") { context.terminal.out(JSONValue.array(documents).prettyString()) }
        return status
    }
}
