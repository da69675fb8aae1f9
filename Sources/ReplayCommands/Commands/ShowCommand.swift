import StoreKitCore
import StoreKitReplay

/// `replay-cli show`: the recorded state at a step.
enum ShowCommand: Command {
    static let name = "show"
    static let abstract = "Print the recorded state at a step (default: the last one)."
    static let usage = "replay-cli show <session> [--step <n>] [--json]"
    static let arguments = [("<session>", "a recorded session (.jsonl), or '-' for standard input")]
    static let options = [
        OptionSpec(name: "--step", valueName: "<n>", help: "the step; 0 is the initial state (default: the last step)"),
        CommonOptions.json,
    ]

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws(CLIError) -> Int32 {
        guard parsed.positionals.count == 1 else { throw CLIError("show takes one session", usage: usage) }
        let step = try parsed.integer("--step", in: 0...Int.max, usage: usage)
        let session = try SessionInput(parsed.positionals[0])
        defer { session.cleanUp() }
        var found: (Int, JSONValue, String)?
        var actions = 0
        try SessionScan.read(session) { event throws(CLIError) in
            switch event {
            case .header(let header):
                found = (0, header.initialState, "initial state")
                return step != 0
            case .action(let action):
                actions += 1
                if let step, action.sequence > step { return false }
                found = (action.sequence, action.state, action.name)
                return action.sequence != step
            default:
                return true
            }
        }
        guard let (reached, state, name) = found, step == nil || reached == step else {
            throw CLIError("\(session.displayName) has no step \(step ?? 0) (it has \(actions) actions; a gap may cover that step)")
        }
        if parsed.has("--json") {
            context.terminal.out(JSONValue.object(["step": .integer(Int64(reached)), "action": .string(name), "state": state]).prettyString())
        } else {
            context.terminal.err("state after step \(reached) (\(name)):")
            context.terminal.out(state.prettyString())
        }
        return 0
    }
}
