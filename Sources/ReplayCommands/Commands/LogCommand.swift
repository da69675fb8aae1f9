import CommandLineOptions
import StoreKitCore
import StoreKitReplay

/// `replay-cli log`: one line per event; an action's line is its step, time, origin, how many paths of the state
/// changed, and its whole name.
enum LogCommand: Command {
    static let command = CommandDescription(
        name: "replay-cli log",
        abstract: "List a session's events: step, time, origin, how much the state changed, and the action's whole name.",
        arguments: [ArgumentDeclaration("<session>", help: "a recorded session (.jsonl), or '-' for standard input")], options: [SharedOptions.json.declaration])

    static func run(_ parsed: ParsedCommandLine, _ context: CommandContext) throws(CLIError) -> Int32 {
        let session = try SessionInput(parsed.positionals[0])
        defer { session.cleanUp() }
        var previous: JSONValue = .null
        var entries: [JSONValue] = []
        let json = parsed.isSet(SharedOptions.json)
        try SessionScan.read(session) { event throws(CLIError) in
            switch event {
            case .header(let header):
                previous = header.initialState
                if !json { context.terminal.out("session \(header.sessionID), store \"\(header.storeID)\", \(header.app.name) \(header.app.version), started \(header.startedAt)") }
            case .action(let action):
                let changes = StateDiff(from: previous, to: action.state).changes.count
                previous = action.state
                var origin = "app"
                if case .effect(let cause) = action.origin { origin = cause.map { "effect of \($0)" } ?? "effect" }
                if json {
                    entries.append(.object([
                        "kind": .string("action"), "step": .integer(Int64(action.sequence)), "time": .double(action.time),
                        "name": .string(action.name), "origin": .string(origin), "changes": .integer(Int64(changes)),
                    ]))
                } else {
                    // The name comes last, whole: a case path (`path.element.rehearse.timerTick`) has no fixed
                    // width, and the columns before it do, so every line stays aligned as it streams out.
                    let step = String(action.sequence).leftPadded(6)
                    let time = String(format: "%9.3fs", action.time)
                    let origin = origin.rightPadded(16)
                    let count = "\(changes) change\(changes == 1 ? "" : "s")".rightPadded(11)
                    context.terminal.out("\(step) \(time)  \(origin) \(count)  \(action.name)")
                }
            case .gap(let gap):
                if json {
                    entries.append(SessionEvent.gap(gap).jsonValue)
                } else {
                    context.terminal.out(context.terminal.yellow("     - gap: steps \(gap.firstSequence)-\(gap.lastSequence) lost (\(gap.reason.rawValue))"))
                }
            case .end(let end):
                if json {
                    entries.append(SessionEvent.end(end).jsonValue)
                } else {
                    context.terminal.out("     - end: \(end.reason.rawValue) after \(String(format: "%.3f", end.time)) s, \(end.actions) actions, \(end.dropped) dropped")
                }
            }
            return true
        }
        if json { context.terminal.out(JSONValue.array(entries).prettyString()) }
        return 0
    }
}

extension String {
    /// The string right-aligned in `width` columns.
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }

    /// The string left-aligned in `width` columns; a longer string is kept whole, never cut.
    func rightPadded(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
