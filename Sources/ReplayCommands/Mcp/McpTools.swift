import CommandLineOptions

/// The tools `replay-cli mcp` offers: the commands that read sessions, each run as `--json` runs it. None takes a
/// replay host, a build step or an output path: the host is the one the server's own configuration names (as the
/// command line resolves it), and a report goes to the server's reports folder.
enum McpTools {
    /// A session file, the first positional argument of each tool but `sessions`.
    private static let session = McpTool.Parameter.positional(
        "session", "a recorded session (.jsonl): its path, absolute or relative to the server's working directory")

    /// Every tool, in the order `tools/list` gives them.
    static let all: [McpTool] = [
        McpTool(
            name: "sessions",
            description: SessionsCommand.command.abstract + " Each entry's 'file' is the path the other tools take.",
            command: SessionsCommand.self,
            parameters: [
                .option("dir", .string, SessionsCommand.directory.declaration), .option("app", .string, SessionsCommand.app.declaration),
                .option("store", .string, SessionsCommand.store.declaration), .option("since", .string, SessionsCommand.since.declaration),
                .option("status", .string, SessionsCommand.status.declaration), .option("action", .string, SessionsCommand.action.declaration),
            ],
            output: .json(arrayMember: "sessions")),
        McpTool(
            name: "log",
            description: LogCommand.command.abstract + " With diff, what each action changed.",
            command: LogCommand.self,
            parameters: [
                session, .option("diff", .boolean, LogCommand.diff.declaration), .option("name", .string, StepFilter.name.declaration),
                .option("origin", .string, StepFilter.origin.declaration), .option("grep", .string, StepFilter.grep.declaration),
                .option("from", .integer, StepFilter.from.declaration), .option("to", .integer, StepFilter.to.declaration),
                .option("path", .string, StepFilter.path.declaration),
            ],
            output: .json(arrayMember: "events")),
        McpTool(
            name: "history",
            description: HistoryCommand.command.abstract,
            command: HistoryCommand.self,
            parameters: [session, .positional("path", HistoryCommand.command.arguments[1].help)],
            output: .json(arrayMember: nil)),
        McpTool(
            name: "show",
            description: ShowCommand.command.abstract,
            command: ShowCommand.self,
            parameters: [session, .option("step", .integer, ShowCommand.step.declaration)],
            output: .json(arrayMember: nil)),
        McpTool(
            name: "diff",
            description: DiffCommand.command.abstract
                + " Replays through the replay host the server's configuration names (REPLAY_HOST, or a trusted .replay.json in its working directory), after its build step.",
            command: DiffCommand.self,
            parameters: [
                session,
                .positional(
                    "otherSession", required: false,
                    "compare the session with this one step by step instead (no reducers needed)"),
                .option("all", .boolean, DiffCommand.all.declaration), .option("ignore", .strings, SharedOptions.ignore.declaration),
            ],
            output: .json(arrayMember: nil)),
        McpTool(
            name: "report",
            description: ReportCommand.command.abstract
                + " The page is written to the server's reports folder; the result gives its path.",
            command: ReportCommand.self,
            parameters: [
                session, .option("all", .boolean, ReportCommand.all.declaration),
                .option("noReplay", .boolean, ReportCommand.noReplay.declaration), .option("ignore", .strings, SharedOptions.ignore.declaration),
            ],
            output: .reportPage),
    ]
}
