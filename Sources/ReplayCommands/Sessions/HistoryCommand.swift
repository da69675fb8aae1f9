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
            A path that names no place in any recorded state, where a member name near one it gives exists, is a \
            typo: trouble, and the error says 'did you mean ...'. Without such a near name it may be an optional \
            that was nil throughout (absent from the recorded JSON): a note on stderr names the nearest places \
            that exist, and the history is listed as for a path that never changed.
            Exit status: 0 some step changed the path, 1 none did (a line says so), 2 trouble, among it a \
            mistyped path.
            """)

    static func run(_ parsed: ParsedCommandLine, _ context: CommandContext) throws(CLIError) -> ExitStatus {
        let selection = try ChangesUnderPattern(parsed.positionals[1], option: "<path>")
        let pattern = selection.pattern.text
        let session = try SessionInput(parsed.positionals[0])
        defer { session.cleanUp() }
        let presenter: any StreamPresenter<HistoryEntry> =
            parsed.isSet(SharedOptions.json)
            ? HistoryJSONPresenter(terminal: context.terminal, pattern: pattern)
            : HistoryTextPresenter(terminal: context.terminal, pattern: pattern, session: session.displayName)
        let tally = try follow(selection, in: session, into: presenter)
        if tally.changedSteps == 0, let note = tally.presence.note(subject: "'\(pattern)'", source: session.displayName) {
            // A near name that exists makes a typo all but certain; without one the path may be a nil optional.
            guard !tally.presence.suggestions.correcting else { throw CLIError(.input, note) }
            context.terminal.err("note: \(note) (an optional that is nil throughout is absent from the recorded JSON)")
            tally.held.forEach(presenter.present)
        }
        presenter.present(.conclusion(tally))
        // A history is a search: ok when some step changed the path, different when none did.
        return tally.changedSteps > 0 ? .ok : .different
    }

    /// Reads the session and hands each step that changed a place `selection` names, and each gap, to `presenter`;
    /// the header and gaps are held back until a state is found to hold the path, so that a mistyped path prints
    /// nothing but its error.
    /// - Returns: What the session told about the path.
    private static func follow(
        _ selection: ChangesUnderPattern, in session: SessionInput, into presenter: any StreamPresenter<HistoryEntry>
    ) throws(CLIError) -> HistoryTally {
        var changes = ActionChanges()
        var tally = HistoryTally(presence: PatternPresence(selection.pattern))
        func look(in state: JSONValue) {
            tally.presence.look(in: state)
            guard tally.presence.isPresent, !tally.held.isEmpty else { return }
            tally.held.forEach(presenter.present)
            tally.held = []
        }
        func present(_ entry: HistoryEntry) {
            if tally.presence.isPresent { presenter.present(entry) } else { tally.held.append(entry) }
        }
        try SessionScan.read(session) { event throws(CLIError) in
            switch event {
            case .header(let header):
                changes.start(header)
                present(.header(header))
                look(in: header.initialState)
            case .action(let action):
                tally.actions += 1
                look(in: action.state)
                guard let logged = changes.changes(of: action, under: selection) else { return true }
                tally.changedSteps += 1
                // A step that changed the path shows it exists, whatever the walk of the states found.
                tally.held.forEach(presenter.present)
                tally.held = []
                presenter.present(.step(logged))
            case .gap(let gap):
                changes.noteGap()
                tally.gaps.append(gap)
                present(.gap(gap))
            case .end, .call, .effectEnd, .note:
                break
            }
            return true
        }
        return tally
    }
}
