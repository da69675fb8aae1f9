import CommandLineOptions
import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// `replay-cli replay`: the state the current reducers produce, at the end or at a step.
enum ReplayCommand: Command {
    /// `--step <n>`.
    static let step = Option<Int>.integer(
        "--step", in: 0...Int.max, defaultDescription: "the last step", help: "stop after step n")

    static let command = CommandDescription(
        name: "replay-cli replay", abstract: "Replay a session through the current reducers and print the replayed state.",
        arguments: [ArgumentDeclaration("<session>", help: "a recorded session (.jsonl), or '-' for standard input")], options: [step.declaration] + SharedOptions.ignoring + SharedOptions.replaying)

    static func run(_ parsed: ParsedCommandLine, _ context: CommandContext) throws(CLIError) -> ExitStatus {
        let step = parsed.value(of: step)
        let ignoring = try IgnoredPaths.resolve(parsed, context: context)
        let session = try SessionInput(parsed.positionals[0])
        defer { session.cleanUp() }
        let hostOptions = try HostOptions.resolve(parsed, context: context)
        let identity = try hostOptions.bringUpToDate(context.terminal)
        let outcome = try hostOptions.client.check(
            session, ReplayHostClient.Checking(findAll: true, lastStep: step, ignoring: ignoring), progressOn: context.terminal)
        if let step, step > outcome.report.stepCount {
            throw MissingStep.pastTheEnd(stepCount: outcome.report.stepCount).error(step: step, in: session)
        }
        if let step, let gap = outcome.report.gap(covering: step) {
            throw MissingStep.inGap(gap).error(step: step, in: session)
        }
        if case .undecodable(let failure) = outcome.report.verdict {
            throw CLIError(
                .session, "cannot replay past step \(failure.step): \(failure.message)", file: session.displayName)
        }
        guard let state = outcome.report.finalState else { throw CLIError(.host, "the replay host returned no state") }
        for warning in IgnoredPaths.warnings(given: parsed, in: ignoring, session: session) { context.terminal.err(warning) }
        if let first = outcome.report.divergences.first {
            context.terminal.err("note: the replay diverged at step \(first.step); later steps continue from the recorded state")
        }
        let reached = step ?? outcome.report.lastActionStep
        if parsed.isSet(SharedOptions.json) {
            context.terminal.out(
                JSONValue.object(["step": .integer(Int64(reached)), "state": state, "host": identity.jsonValue]).prettyString())
        } else {
            // Standard output holds the state alone, so that it can be piped on; what replayed it goes to stderr.
            context.terminal.err(identity.summary)
            context.terminal.out(state.prettyString())
        }
        return .ok
    }
}
