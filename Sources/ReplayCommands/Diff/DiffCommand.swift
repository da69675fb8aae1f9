import CommandLineOptions
import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// `replay-cli diff`: replay a session through the current reducers and show the first divergence; or compare
/// two sessions step by step, or two JSON states.
enum DiffCommand: Command {
    /// `--all`.
    static let all = Flag("--all", help: "keep going and list every diverging step")
    /// `--context <n>`.
    static let contextActions = Option<Int>.integer(
        "--context", in: 0...1000, default: 2, help: "show the n actions before the divergence")
    /// `--states`.
    static let states = Flag("--states", help: "compare two JSON documents (states, e.g. saved with show --json) instead")
    /// `--report <file.html>`.
    static let report = Option<String>.string(
        "--report", valueName: "<file.html>", help: "also write the session as a self-contained HTML page (see 'report')")

    static let command = CommandDescription(
        name: "replay-cli diff",
        abstract: "Replay a session through the current reducers and show where the state diverges, or compare two sessions.",
        arguments: [
            ArgumentDeclaration("<session>", help: "a recorded session (.jsonl), or '-' for standard input"),
            ArgumentDeclaration(
                "<other-session>", help: "compare the two sessions step by step instead (no reducers needed)", isOptional: true),
        ],
        options: [
            all.declaration, contextActions.declaration, states.declaration, report.declaration, HostDeterminism.flag.declaration,
            BaselineRevision.option.declaration,
        ]
            + SharedOptions.ignoring
            + SharedOptions.replaying,
        alternativeUsages: ["--states <old.json> <new.json> [--ignore <path> ...] [--json]"],
        discussion: """
            With --baseline, the session's actions are replayed through the host built from that revision as well, \
            and the first step where the two versions disagree (a state, an effect run, a host that stops) is shown \
            whatever the recorded states say: - the baseline, + the current code. Exit status: 0 the same (a match), \
            1 different, 2 trouble.
            """)

    static func run(_ parsed: ParsedCommandLine, _ context: CommandContext) throws(CLIError) -> ExitStatus {
        let ignoring = try IgnoredPaths.resolve(parsed, context: context)
        if parsed.value(of: report) != nil, parsed.isSet(states) || parsed.positionals.count == 2 {
            throw CLIError(.usage, "'--report' writes the page of one session replayed through its host; it does not combine with '--states' or a second session")
        }
        if parsed.isSet(HostDeterminism.flag), parsed.isSet(states) || parsed.positionals.count == 2 {
            throw CLIError("--determinism replays one session; it does not go with two sessions or --states", usage: command.usage)
        }
        if parsed.value(of: BaselineRevision.option) != nil {
            guard !parsed.isSet(states), parsed.positionals.count == 1, !parsed.isSet(HostDeterminism.flag),
                parsed.value(of: report) == nil, !parsed.isSet(all)
            else {
                throw CLIError("--baseline replays one session through two versions of the code; it does not go with a second session, --states, --determinism, --report or --all", usage: command.usage)
            }
            return try BaselineDiff.run(parsed, context, ignoring: ignoring)
        }
        if parsed.isSet(states) { return try StateFileComparison.run(parsed, context, ignoring: ignoring) }
        if parsed.positionals.count == 2 { return try SessionComparison.run(parsed, context, ignoring: ignoring) }
        let session = try SessionInput(parsed.positionals[0])
        defer { session.cleanUp() }
        let hostOptions = try HostOptions.resolve(parsed, context: context)
        let identity = try hostOptions.bringUpToDate(context.terminal)
        if parsed.isSet(HostDeterminism.flag),
            let finding = try HostDeterminism(host: hostOptions.host, timeout: hostOptions.timeout).check(session)
        {
            context.terminal.present(
                NondeterministicReplay(session: session.displayName, finding: finding, host: identity), json: parsed.isSet(SharedOptions.json))
            return .different
        }
        let configuredIdentity = try ConfiguredIdentity.resolve(context)
        let checking = ReplayHostClient.Checking(
            findAll: parsed.isSet(all), contextActions: parsed.value(ofDefaulted: contextActions), ignoring: ignoring,
            identity: configuredIdentity.keys)
        let outcome = try hostOptions.client.check(session, checking, progressOn: context.terminal)
        for warning in configuredIdentity.warnings(about: [outcome.report])
            + IgnoredPaths.warnings(given: parsed, in: ignoring, session: session)
        {
            context.terminal.err(warning)
        }
        if let path = parsed.value(of: report) {
            context.terminal.err(try ReportCommand.write(session, outcome: outcome, note: nil, to: path, context))
        }
        context.terminal.present(
            SessionDiff(session: session.displayName, outcome: outcome, host: identity), json: parsed.isSet(SharedOptions.json))
        return outcome.exitStatus
    }
}
