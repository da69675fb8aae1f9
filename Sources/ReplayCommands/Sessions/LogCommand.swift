import CommandLineOptions
import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// `replay-cli log`: one line per event; an action's line is its step, time, origin, how many paths of the state
/// changed, and the action as Swift writes it; an effect's call or end (format 2) is a line between them. With
/// `--diff`, the changes under an action; filters choose the actions shown, an effect's lines follow the action
/// that started its run, and a note (format 3) the action before it.
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
        abstract: "List a session's events: step, time, origin, how much the state changed, and the action as Swift writes it.",
        arguments: [
            ArgumentDeclaration("<session>", help: "a recorded session (.jsonl), or '-' for standard input", isOptional: true)
        ],
        options: [diff.declaration, full.declaration, follow.declaration, latest.declaration, SessionsCommand.directory.declaration]
            + StepFilter.declarations + [SharedOptions.json.declaration],
        discussion: """
            Filters combine: an action is listed when it passes all of them. A replayable effect's call and \
            'effect end' lines (sessions of format 2) are listed when the action that started the run is, and a \
            note (format 3) when the action before it is. Gaps \
            within the steps listed and the end are always listed. Each action is compared with the state recorded before it; after a gap, that \
            state is from before the gap, and --diff says so. With --json, an action listed with --diff carries \
            'diff', its changes as 'diff --json' writes them; call, effectEnd, note, gap and end entries are the session's \
            lines. Reads the session only; no replay host runs.
            """)

    static func run(_ parsed: ParsedCommandLine, _ context: CommandContext) throws(CLIError) -> ExitStatus {
        let filter = try StepFilter(parsed, usage: command.usage)
        let session = try SessionInput(try sessionArgument(parsed, context))
        defer { session.cleanUp() }
        let following = parsed.isSet(follow)
        let full = parsed.isSet(Self.full)
        let showsChanges = full || parsed.isSet(Self.diff)
        let presenter: any StreamPresenter<LogEntry> =
            parsed.isSet(SharedOptions.json)
            ? LogJSONPresenter(terminal: context.terminal, showsChanges: showsChanges, following: following)
            : LogTextPresenter(terminal: context.terminal, showsChanges: showsChanges, full: full)
        let notes = try list(session, filter, following: following, into: presenter)
        presenter.finish()
        for note in notes { context.terminal.err("note: \(note)") }
        return .ok
    }

    /// Reads the session (with `following`, as it is written) and hands each entry that passes `filter` to
    /// `presenter`. Each action is compared with the state before it, and only that state is kept.
    /// - Returns: A note for a `--name` that no action of the session has and a `--path` that no state holds, each
    ///   with the nearest that exist.
    private static func list(
        _ session: SessionInput, _ filter: StepFilter, following: Bool, into presenter: any StreamPresenter<LogEntry>
    ) throws(CLIError) -> [String] {
        var names = StepFilter.NameSearch(filter.namePrefix)
        var presence = filter.changes.map { PatternPresence($0.pattern) }
        var changes = ActionChanges()
        // The steps listed, for the effect lines of their runs; not kept when everything is listed.
        var listed = Set<Int>()
        func admits(cause: Int) -> Bool { filter.admitsEverything || listed.contains(cause) }
        // Whether the last action was listed, for the notes after it.
        var listsNotes = filter.admitsEverything
        let read = following ? SessionFollower.read : SessionScan.read
        try read(session) { event throws(CLIError) in
            switch event {
            case .header(let header):
                changes.start(header)
                presence?.look(in: header.initialState)
                presenter.present(.header(header))
            case .action(let action):
                names?.look(at: action.name)
                presence?.look(in: action.state)
                listsNotes = false
                guard filter.admits(action) else {
                    changes.skip(action)
                    return true
                }
                guard let logged = changes.changes(of: action, under: filter.changes) else { return true }
                listsNotes = true
                if !filter.admitsEverything { listed.insert(action.sequence) }
                presenter.present(.action(logged))
            case .call(let call):
                if admits(cause: call.cause) { presenter.present(.call(call)) }
            case .effectEnd(let end):
                if admits(cause: end.cause) { presenter.present(.effectEnd(end)) }
            case .note(let note):
                if listsNotes { presenter.present(.note(note)) }
            case .gap(let gap):
                changes.noteGap()
                if filter.admits(gap) { presenter.present(.gap(gap)) }
            case .end(let end):
                presenter.present(.end(end))
            }
            return true
        }
        let source = session.displayName
        return [
            names?.note(option: StepFilter.name.declaration.name, source: source),
            presence?.note(subject: "\(StepFilter.path.declaration.name) '\(presence?.pattern.text ?? "")'", source: source),
        ].compactMap { $0 }
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
