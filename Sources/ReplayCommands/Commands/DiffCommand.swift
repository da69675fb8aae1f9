import StoreKitCore
import StoreKitReplay

/// `replay-cli diff`: replay a session through the current reducers and show the first divergence; or compare
/// two sessions step by step, or two JSON states.
enum DiffCommand: Command {
    static let name = "diff"
    static let abstract = "Replay a session through the current reducers and show where the state diverges, or compare two sessions."
    static let usage = "replay-cli diff <session> [<other-session>] [--all] [--context <n>] [--host <command>] [--build <command> | --no-build] [--timeout <seconds>] [--json]\n       replay-cli diff --states <old.json> <new.json> [--json]"
    static let arguments = [
        ("<session>", "a recorded session (.jsonl), or '-' for standard input"),
        ("<other-session>", "compare the two sessions step by step instead (no reducers needed)"),
    ]
    static let options = [
        OptionSpec(name: "--all", valueName: nil, help: "keep going and list every diverging step"),
        OptionSpec(name: "--context", valueName: "<n>", help: "show the n actions before the divergence (default: 2)"),
        OptionSpec(name: "--states", valueName: nil, help: "compare two JSON documents (states, e.g. saved with show --json) instead"),
    ] + CommonOptions.replaying + [CommonOptions.json]

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws(CLIError) -> Int32 {
        if parsed.has("--states") { return try StateFileComparison.run(parsed, context) }
        switch parsed.positionals.count {
        case 1: break
        case 2: return try SessionComparison.run(parsed, context)
        default: throw CLIError("diff takes one session, or two to compare", usage: usage)
        }
        let contextCount = try parsed.integer("--context", in: 0...1000, usage: usage) ?? 2
        let session = try SessionInput(parsed.positionals[0])
        defer { session.cleanUp() }
        let host = try HostCommand.locate(parsed, context: context)
        let identity = try host.bringUpToDate(skipBuild: parsed.has("--no-build"), terminal: context.terminal)
        let timeout = Double(try parsed.integer("--timeout", in: 1...86_400, usage: usage) ?? 30)
        let outcome = try HostReplay(host: host, timeout: timeout, terminal: context.terminal)
            .check(session, findAll: parsed.has("--all"))
        let before = try precedingActions(outcome, session: session, count: contextCount)
        if parsed.has("--json") {
            context.terminal.out(
                JSONValue.object([
                    "session": .string(session.displayName), "drift": outcome.drift.jsonValue, "report": outcome.report.jsonValue,
                    "host": identity.jsonValue,
                    "context": .array(before.map { .object(["step": .integer(Int64($0.sequence)), "name": .string($0.name), "action": $0.action]) }),
                ]).prettyString())
        } else {
            if !outcome.drift.isEmpty { context.terminal.out(context.terminal.yellow(outcome.drift.explanation) + "\n") }
            var text = outcome.report.explanation(source: session.displayName)
            if !before.isEmpty, let actionLine = text.range(of: "\n  action  ") {
                let rest = text[actionLine.upperBound...]
                let endOfLine = rest.firstIndex(of: "\n") ?? rest.endIndex
                let lines = before.map { "  before  \($0.sequence) \($0.name) \($0.action.canonicalString)" }.joined(separator: "\n")
                text.insert(contentsOf: "\n" + lines, at: endOfLine)
            }
            context.terminal.out(context.terminal.colorDiff(text))
            context.terminal.out(identity.summary)
        }
        return outcome.exitStatus
    }

    /// The `count` actions before the first divergence, read from the session itself.
    private static func precedingActions(
        _ outcome: HostReplay.Outcome, session: SessionInput, count: Int
    ) throws(CLIError) -> [ActionEvent] {
        guard count > 0, case .diverged(let divergence) = outcome.report.verdict else { return [] }
        var window: [ActionEvent] = []
        do {
            let reader = try SessionReader(path: session.path)
            while let event = try reader.next() {
                guard case .action(let action) = event else { continue }
                if action.sequence >= divergence.step { break }
                window.append(action)
                if window.count > count { window.removeFirst() }
            }
        } catch {
            throw CLIError(HostReplay.rename(error, session))
        }
        return window
    }
}
