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
        if case .undecodable(let failure) = outcome.report.verdict {
            throw CLIError(
                .session, "cannot replay past step \(failure.step): \(failure.message)", file: session.displayName)
        }
        // A step a gap covers has a state only when replay ran through the actions the gap kept to it; past this
        // check, a gap at the step is such a gap.
        let keptGap = step.flatMap { step in outcome.report.gap(covering: step) }
        if let step, let gap = keptGap, outcome.report.lastStepReplayed != step {
            throw MissingStep.inGap(gap).error(step: step, in: session)
        }
        guard let state = outcome.report.finalState else { throw CLIError(.host, "the replay host returned no state") }
        for warning in IgnoredPaths.warnings(given: parsed, in: ignoring, session: session) { context.terminal.err(warning) }
        if let first = outcome.report.divergences.first {
            context.terminal.err("note: the replay diverged at step \(first.step); later steps continue from the recorded state")
        }
        let reached = step ?? outcome.report.lastActionStep
        if parsed.isSet(SharedOptions.json) {
            var document: [String: JSONValue] = ["step": .integer(Int64(reached)), "state": state, "host": identity.jsonValue]
            if keptGap != nil { document["stateRecorded"] = .bool(false) }
            context.terminal.out(JSONValue.object(document).prettyString())
        } else {
            // Standard output holds the state alone, so that it can be piped on; what replayed it goes to stderr.
            if let keptGap {
                context.terminal.err(
                    "note: step \(reached) is in a gap of steps \(keptGap.firstSequence)-\(keptGap.lastSequence) "
                        + "(\(keptGap.reason.rawValue)) that kept its actions without their states: this state is the "
                        + "replay's alone, with no recorded one to compare")
            }
            context.terminal.err(identity.summary)
            context.terminal.out(state.prettyString())
        }
        return .ok
    }
}
