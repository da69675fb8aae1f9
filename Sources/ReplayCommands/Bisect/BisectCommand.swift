import CommandLineOptions
import StoreKitCore
import StoreKitReplay

/// `replay-cli bisect SESSION --good REV [--bad REV]`: the first commit, on the first-parent line from good to bad,
/// whose replay of the session differs from good's or crashes, found by building and replaying commits in a worktree.
enum BisectCommand: Command {
    /// `--good <rev>`.
    static let good = Option<String>.string(
        "--good", valueName: "<rev>", help: "a git revision whose replay of the session is the reference (required)").required()
    /// `--bad <rev>`.
    static let bad = Option<String>.string(
        "--bad", valueName: "<rev>", defaultDescription: "HEAD", help: "a later git revision whose replay differs from good's")

    static let command = CommandDescription(
        name: "replay-cli bisect",
        abstract: "Find the first commit whose replay of a session differs from a good revision's, building each commit tested.",
        arguments: [ArgumentDeclaration("<session>", help: "a recorded session (.jsonl), or '-' for standard input")],
        options: [good.declaration, bad.declaration] + SharedOptions.ignoring
            + [SharedOptions.host.declaration, SharedOptions.build.declaration, SharedOptions.timeout.declaration, SharedOptions.json.declaration],
        discussion: """
            The commits searched are the first-parent line after good up to bad. Good is built in the worktree \
            .build/replay-baselines/bisect-good; bad, then the commit in the middle of what is left, each in turn in \
            .build/replay-baselines/bisect, so each build after the first is incremental. A commit changes when its \
            replay differs from good's (a state, an effect run, a host that stops), as 'diff --baseline' compares; \
            one that does not build, or whose host cannot replay the session, is skipped. Exit status: 0 the first \
            changing commit found, 1 bad replays as good, 2 trouble, or skipped commits leave the first change among \
            a few (listed).
            """)

    static func run(_ parsed: ParsedCommandLine, _ context: CommandContext) throws(CLIError) -> ExitStatus {
        guard let goodRevision = parsed.value(of: good) else {
            throw CLIError("bisect needs '--good <rev>', a revision whose replay of the session is right", usage: command.usage)
        }
        let ignoring = try IgnoredPaths.resolve(parsed, context: context)
        let session = try SessionInput(parsed.positionals[0])
        defer { session.cleanUp() }
        let host = try HostCommand.locate(
            host: parsed.value(of: SharedOptions.host), build: parsed.value(of: SharedOptions.build), context: context)
        let range = try BisectRange(
            good: goodRevision, bad: parsed.value(of: bad) ?? "HEAD", in: try BaselineHost.Repository(of: host))
        let result = try Bisection(
            session: session, range: range, host: host, timeout: Double(parsed.value(ofDefaulted: SharedOptions.timeout)),
            ignoring: ignoring, identity: try ConfiguredIdentity.resolve(context).keys, terminal: context.terminal
        ).run()
        context.terminal.present(result, json: parsed.isSet(SharedOptions.json))
        return result.exitStatus
    }
}
