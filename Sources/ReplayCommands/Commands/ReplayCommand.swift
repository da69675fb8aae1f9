import StoreKitCore
import StoreKitReplay

/// `replay-cli replay`: the state the current reducers produce, at the end or at a step.
enum ReplayCommand: Command {
    static let name = "replay"
    static let abstract = "Replay a session through the current reducers and print the replayed state."
    static let usage = "replay-cli replay <session> [--step <n>] [--host <command>] [--build <command> | --no-build] [--timeout <seconds>] [--json]"
    static let arguments = [("<session>", "a recorded session (.jsonl), or '-' for standard input")]
    static let options = [
        OptionSpec(name: "--step", valueName: "<n>", help: "stop after step n (default: the last step)"),
    ] + CommonOptions.replaying + [CommonOptions.json]

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws(CLIError) -> Int32 {
        guard parsed.positionals.count == 1 else { throw CLIError("replay takes one session", usage: usage) }
        let step = try parsed.integer("--step", in: 0...Int.max, usage: usage)
        let session = try SessionInput(parsed.positionals[0])
        defer { session.cleanUp() }
        let host = try HostCommand.locate(parsed, context: context)
        let identity = try host.bringUpToDate(skipBuild: parsed.has("--no-build"), terminal: context.terminal)
        let timeout = Double(try parsed.integer("--timeout", in: 1...86_400, usage: usage) ?? 30)
        let outcome = try HostReplay(host: host, timeout: timeout, terminal: context.terminal)
            .check(session, findAll: true, lastStep: step)
        if let step, step > outcome.report.actionCount {
            throw CLIError("\(session.displayName) has \(outcome.report.actionCount) actions; there is no step \(step)")
        }
        if case .undecodable(let failure) = outcome.report.verdict {
            throw CLIError("\(session.displayName): cannot replay past step \(failure.step): \(failure.message)")
        }
        guard let state = outcome.report.finalState else { throw CLIError("the replay host returned no state") }
        if let first = outcome.report.divergences.first {
            context.terminal.err("note: the replay diverged at step \(first.step); later steps continue from the recorded state")
        }
        let reached = step ?? outcome.report.actionCount
        if parsed.has("--json") {
            context.terminal.out(
                JSONValue.object(["step": .integer(Int64(reached)), "state": state, "host": identity.jsonValue]).prettyString())
        } else {
            // Standard output holds the state alone, so that it can be piped on; what replayed it goes to stderr.
            context.terminal.err(identity.summary)
            context.terminal.out(state.prettyString())
        }
        return 0
    }
}
