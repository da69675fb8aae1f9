import CommandLineOptions
import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// `replay-cli show`: the recorded state at a step.
enum ShowCommand: Command {
    /// `--step <n>`.
    static let step = Option<Int>.integer(
        "--step", in: 0...Int.max, defaultDescription: "the last step", help: "the step; 0 is the initial state")

    static let command = CommandDescription(
        name: "replay-cli show", abstract: "Print the recorded state at a step (default: the last one).",
        arguments: [ArgumentDeclaration("<session>", help: "a recorded session (.jsonl), or '-' for standard input")], options: [step.declaration, SharedOptions.json.declaration])

    static func run(_ parsed: ParsedCommandLine, _ context: CommandContext) throws(CLIError) -> ExitStatus {
        let step = parsed.value(of: step)
        let session = try SessionInput(parsed.positionals[0])
        defer { session.cleanUp() }
        var found: (Int, JSONValue, String)?
        var missing: MissingStep?
        var stepCount = 0
        try SessionScan.read(session) { event throws(CLIError) in
            switch event {
            case .header(let header):
                found = (0, header.initialState, "initial state")
                return step != 0
            case .action(let action):
                stepCount = action.sequence
                if let step, action.sequence > step { return false }
                found = (action.sequence, action.state, action.name)
                return action.sequence != step
            case .gap(let gap):
                stepCount = gap.lastSequence
                guard let step, gap.firstSequence <= step, step <= gap.lastSequence else { return true }
                missing = .inGap(gap)
                return false
            default:
                return true
            }
        }
        guard let (reached, state, name) = found, step == nil || reached == step else {
            throw (missing ?? .pastTheEnd(stepCount: stepCount)).error(step: step ?? 0, in: session)
        }
        if parsed.isSet(SharedOptions.json) {
            context.terminal.out(JSONValue.object(["step": .integer(Int64(reached)), "action": .string(name), "state": state]).prettyString())
        } else {
            context.terminal.err("state after step \(reached) (\(name.escapingControls())):")
            context.terminal.out(state.prettyString())
        }
        return .ok
    }
}
