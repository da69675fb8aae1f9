import CommandLineOptions
import Foundation
import StoreKitCore
import StoreKitReplay

// The layers of ReplayCommands, arrows pointing down only:
//
//   ReplayCLI.swift   the command line: the list of commands, and `main`, which runs one and maps its end to a status
//   Mcp/              the MCP server (`mcp`): runs the families' session-reading commands as its tools
//   Diff/ Check/ Sessions/ Export/ Minimize/ Device/   the command families, each a command (or a few) with the helpers
//                     only it uses; a family uses Host and Core, never another family
//   Host/             the replay host: where it is found (Configuration/), its build step (Build/), the one client
//                     that talks to it (Client/), what replayed (HostIdentity); `host --show` lives here too
//   Core/             what every command shares: Command and its context, CLIError, ExitStatus, SharedOptions,
//                     SessionInput and SessionScan, Terminal and its presenters, Escaping/, System/
//
// A helper two families need moves down to Core (or Host, when it is about the host).

/// The `replay-cli` command line: finds the subcommand, parses its arguments, runs it, maps errors to exit 2.
public enum ReplayCLI {
    /// The program's name, which every command's name starts with.
    static let programName = "replay-cli"

    static let commands: [any Command.Type] = [
        DiffCommand.self, CheckCommand.self, MergeReportsCommand.self, ReplayCommand.self, ReportCommand.self, ShowCommand.self,
        LogCommand.self, HistoryCommand.self, StatsCommand.self, MinimizeCommand.self, ExportTestCommand.self,
        ExportCommand.self, SessionsCommand.self, VerifyCommand.self, UpdateCommand.self, HostShowCommand.self,
        BisectCommand.self, PullCommand.self, McpCommand.self,
    ]

    /// The root command: what `replay-cli --help` shows.
    static let root = CommandDescription(
        name: programName,
        abstract: "Replay recorded sessions of a unidirectional-data-flow app through its current reducers.",
        discussion: "Exit status: 0 same or ok, 1 differences found, 2 trouble (bad usage, unreadable input, a failing host).",
        subcommands: commands.map { $0.command })

    /// Runs the command line (without the program name) and returns the exit status.
    public static func main(_ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment) -> Int32 {
        let context = CommandContext(
            terminal: Terminal(environment: environment), environment: environment,
            currentDirectory: FileManager.default.currentDirectoryPath)
        guard let name = arguments.first, name != "--help", name != "-h", name != "help" else {
            if arguments.isEmpty {
                context.terminal.err("Error: missing subcommand\nUsage: \(root.usage)\n\n\(root.help)")
                return ExitStatus.trouble.code
            }
            context.terminal.out(root.help)
            return ExitStatus.ok.code
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            var message = "unknown subcommand '\(name)'"
            if let suggestion = Suggestion.closest(to: name, among: commands.map { $0.name }) {
                message += "\nDid you mean '\(suggestion)'?"
            }
            context.terminal.err(UsageError(message, usage: root.usage).description)
            return ExitStatus.trouble.code
        }
        switch command.execute(Array(arguments.dropFirst()), context) {
        case .success(let status):
            return status.code
        case .failure(let error):
            if command.reportsAsJSON(arguments.dropFirst()) {
                context.terminal.out(error.jsonValue.prettyString())
            } else {
                context.terminal.err(error.text)
            }
            return error.exitStatus.code
        }
    }
}
