import CommandLineOptions
import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// `replay-cli history SESSION PATH`: every step that changed a place of the state, with the action and
/// `old -> new` for each change there; exit 0 when some step did, 1 when none did, 2 on bad input.
///
/// It streams: each action is compared with the state before it, and only that state is kept.
enum HistoryCommand: Command {
    static let command = CommandDescription(
        name: "replay-cli history",
        abstract: "List every step that changed a path of the state: the action, its origin, and old -> new.",
        arguments: [
            ArgumentDeclaration("<session>", help: "a recorded session (.jsonl), or '-' for standard input"),
            ArgumentDeclaration(
                "<path>",
                help: "the place to follow, a pattern as --ignore takes: 'todos[id: 3].title', 'todos[*].isComplete', 'route.*'"),
        ],
        options: [SharedOptions.json.declaration],
        discussion: """
            A step counts when it changed a value at or under the path, or added, removed or replaced a value \
            holding it (then each place inside is listed, '(absent) -> ...'). A gap hides the steps it lost: the \
            step after it is compared with the state before it, and the gap is listed where it was. Reads the \
            session only; no replay host runs.
            Exit status: 0 some step changed the path, 1 none did (a line says so), 2 trouble.
            """)

    /// What the session told about the path: how many actions and steps that changed it, and the gaps.
    private struct Tally {
        var actions = 0
        var changedSteps = 0
        var gaps: [GapEvent] = []
    }

    static func run(_ parsed: ParsedCommandLine, _ context: CommandContext) throws(CLIError) -> ExitStatus {
        let selection = try ChangesUnderPattern(parsed.positionals[1], option: "<path>")
        let pattern = selection.pattern.text
        let session = try SessionInput(parsed.positionals[0])
        defer { session.cleanUp() }
        let json = parsed.isSet(SharedOptions.json)
        var previous: JSONValue = .null
        var previousStep = 0
        var gapSincePrevious = false
        var tally = Tally()
        var steps: [JSONValue] = []
        try SessionScan.read(session) { event throws(CLIError) in
            switch event {
            case .header(let header):
                previous = header.initialState
                if !json { context.terminal.out("history of \(pattern) in \(session.displayName), store \"\(header.storeID.escapingControls())\"") }
            case .action(let action):
                defer {
                    previous = action.state
                    previousStep = action.sequence
                    gapSincePrevious = false
                }
                tally.actions += 1
                guard selection.mayHaveChanged(from: previous, to: action.state) else { return true }
                let whole = StateDiff(from: previous, to: action.state)
                let selected = selection.select(from: whole)
                guard !selected.isEmpty else { return true }
                tally.changedSteps += 1
                let shown = StateDiff(old: whole.old, new: whole.new, changes: selected, typeNotes: whole.typeNotes)
                let comparedWith = gapSincePrevious ? previousStep : nil
                if json {
                    var entry: [String: JSONValue] = [
                        "step": .integer(Int64(action.sequence)), "time": .double(action.time), "name": .string(action.name),
                        "origin": .string(StepRendering.origin(of: action)), "changes": shown.jsonValue,
                    ]
                    if let comparedWith { entry["comparedWithStep"] = .integer(Int64(comparedWith)) }
                    steps.append(.object(entry))
                } else {
                    context.terminal.out(StepRendering.line(action))
                    context.terminal.out(StepRendering.changes(shown, comparedWith: comparedWith, full: false))
                }
            case .gap(let gap):
                gapSincePrevious = true
                tally.gaps.append(gap)
                if !json {
                    context.terminal.out(context.terminal.yellow(StepRendering.gap(gap, then: "what they did to \(pattern) is unknown")))
                }
            case .end:
                break
            }
            return true
        }
        if json {
            context.terminal.out(
                JSONValue.object([
                    "path": .string(pattern), "actions": .integer(Int64(tally.actions)),
                    "changedSteps": .integer(Int64(tally.changedSteps)), "steps": .array(steps),
                    "gaps": .array(tally.gaps.map { SessionEvent.gap($0).jsonValue }),
                ]).prettyString())
        } else {
            context.terminal.out(conclusion(pattern, tally))
        }
        return tally.changedSteps > 0 ? .ok : .different
    }

    /// `3 of 320 steps changed todos[*].title`, or `todos[*].title never changed in 320 steps`, then the steps
    /// gaps lost.
    private static func conclusion(_ pattern: String, _ tally: Tally) -> String {
        let actions = "\(tally.actions) recorded step\(tally.actions == 1 ? "" : "s")"
        var text =
            tally.changedSteps == 0
            ? "\(pattern) never changed in \(actions)"
            : "\(tally.changedSteps) of \(actions) changed \(pattern)"
        if !tally.gaps.isEmpty {
            let lost = tally.gaps.map { "\($0.firstSequence)-\($0.lastSequence)" }.joined(separator: ", ")
            text += "; steps \(lost) were lost in \(tally.gaps.count == 1 ? "a gap" : "gaps") and may hide more"
        }
        return text
    }
}
