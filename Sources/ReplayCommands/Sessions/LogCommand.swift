import CommandLineOptions
import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// `replay-cli log`: one line per event; an action's line is its step, time, origin, how many paths of the state
/// changed, and its whole name. With `--diff`, the changes under it; filters choose the actions shown.
///
/// It streams: each action is compared with the state before it, and only that state is kept.
enum LogCommand: Command {
    /// `--diff`.
    static let diff = Flag("--diff", help: "under each action, what it changed: one line per change, 'todos[id: 3].isComplete  false -> true'")
    /// `--full`.
    static let full = Flag("--full", help: "with --diff, also the -/+ dump of the state around the changes (implies --diff)")
    /// `--follow`.
    static let follow = Flag(
        "--follow", help: "keep listing actions as they are written, until the session's end line (Ctrl-C stops);\nwith --json, one JSON object per line")
    /// `--latest`.
    static let latest = Flag("--latest", help: "the session replayd wrote to last (in --dir), instead of <session>")

    static let command = CommandDescription(
        name: "replay-cli log",
        abstract: "List a session's events: step, time, origin, how much the state changed, and the action's whole name.",
        arguments: [
            ArgumentDeclaration("<session>", help: "a recorded session (.jsonl), or '-' for standard input", isOptional: true)
        ],
        options: [diff.declaration, full.declaration, follow.declaration, latest.declaration, SessionsCommand.directory.declaration]
            + StepFilter.declarations + [SharedOptions.json.declaration],
        discussion: """
            Filters combine: an action is listed when it passes all of them. Gaps within the steps listed and the \
            end are always listed. Each action is compared with the state recorded before it; after a gap, that \
            state is from before the gap, and --diff says so. With --json, an action listed with --diff carries \
            'diff', its changes as 'diff --json' writes them. Reads the session only; no replay host runs.
            """)

    static func run(_ parsed: ParsedCommandLine, _ context: CommandContext) throws(CLIError) -> ExitStatus {
        let filter = try StepFilter(parsed, usage: command.usage)
        let session = try SessionInput(try sessionArgument(parsed, context))
        defer { session.cleanUp() }
        let following = parsed.isSet(follow)
        let json = parsed.isSet(SharedOptions.json)
        /// Each JSON entry: printed as it comes when following, else collected into one document.
        func emit(_ entry: JSONValue) {
            if following { context.terminal.out(String(decoding: entry.canonicalBytes(), as: UTF8.self)) } else { entries.append(entry) }
        }
        let full = parsed.isSet(Self.full)
        let showsChanges = full || parsed.isSet(Self.diff)
        var previous: JSONValue = .null
        var previousStep = 0
        var gapSincePrevious = false
        var entries: [JSONValue] = []
        let read = following ? SessionFollower.read : SessionScan.read
        try read(session) { event throws(CLIError) in
            switch event {
            case .header(let header):
                previous = header.initialState
                if !json { context.terminal.out(StepRendering.headline(of: header)) }
            case .action(let action):
                defer {
                    previous = action.state
                    previousStep = action.sequence
                    gapSincePrevious = false
                }
                guard filter.admits(action), filter.changes?.mayHaveChanged(from: previous, to: action.state) ?? true
                else { return true }
                let whole = StateDiff(from: previous, to: action.state)
                var shown = whole
                if let selection = filter.changes {
                    let selected = selection.select(from: whole)
                    if selected.isEmpty { return true }
                    shown = StateDiff(old: whole.old, new: whole.new, changes: selected, typeNotes: whole.typeNotes)
                }
                let comparedWith = gapSincePrevious ? previousStep : nil
                if json {
                    var entry: [String: JSONValue] = [
                        "kind": .string("action"), "step": .integer(Int64(action.sequence)), "time": .double(action.time),
                        "name": .string(action.name), "origin": .string(StepRendering.origin(of: action)),
                        "changes": .integer(Int64(whole.changes.count)),
                    ]
                    if showsChanges { entry["diff"] = shown.jsonValue }
                    if let comparedWith { entry["comparedWithStep"] = .integer(Int64(comparedWith)) }
                    emit(.object(entry))
                } else {
                    let count = whole.changes.count
                    context.terminal.out(StepRendering.line(action, middle: "\(count) change\(count == 1 ? "" : "s")".rightPadded(11)))
                    if showsChanges && !whole.isEmpty {
                        context.terminal.out(StepRendering.changes(shown, comparedWith: comparedWith, full: full))
                    }
                }
            case .gap(let gap):
                gapSincePrevious = true
                guard filter.admits(gap) else { return true }
                if json {
                    emit(SessionEvent.gap(gap).jsonValue)
                } else {
                    context.terminal.out(context.terminal.yellow(StepRendering.gap(gap)))
                }
            case .end(let end):
                if json {
                    emit(SessionEvent.end(end).jsonValue)
                } else {
                    context.terminal.out("     - end: \(end.reason.rawValue) after \(String(format: "%.3f", end.time)) s, \(end.actions) actions, \(end.dropped) dropped")
                }
            }
            return true
        }
        if json && !following { context.terminal.out(JSONValue.array(entries).prettyString()) }
        return .ok
    }

    /// The session named, or with `--latest` the one written to last in `--dir`.
    private static func sessionArgument(_ parsed: ParsedCommandLine, _ context: CommandContext) throws(CLIError) -> String {
        switch (parsed.positionals.first, parsed.isSet(latest)) {
        case (let path?, false):
            return path
        case (nil, true):
            let directory = parsed.value(of: SessionsCommand.directory) ?? SessionsCommand.defaultDirectory(context.environment)
            guard let path = SessionFollower.latest(in: directory) else {
                throw CLIError(.input, "no sessions in '\(directory)' for --latest")
            }
            return path
        case (_?, true):
            throw CLIError("give a <session> or --latest, not both", usage: command.usage)
        case (nil, false):
            throw CLIError("missing '<session>' (or --latest for the session replayd wrote to last)", usage: command.usage)
        }
    }
}
