import CommandLineOptions
import Foundation
import StoreKitCore
import StoreKitReplay

/// The `replay-cli` command line: finds the subcommand, parses its arguments, runs it, maps errors to exit 2.
public enum ReplayCLI {
    /// The program's name, which every command's name starts with.
    static let programName = "replay-cli"

    static let commands: [any Command.Type] = [
        DiffCommand.self, CheckCommand.self, ReplayCommand.self, ReportCommand.self, ShowCommand.self, LogCommand.self,
        HistoryCommand.self, StatsCommand.self, MinimizeCommand.self, ExportTestCommand.self, SessionsCommand.self,
        VerifyCommand.self, UpdateCommand.self, HostShowCommand.self,
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
                return 2
            }
            context.terminal.out(root.help)
            return 0
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            var message = "unknown subcommand '\(name)'"
            if let suggestion = Suggestion.closest(to: name, among: commands.map { $0.name }) {
                message += "\nDid you mean '\(suggestion)'?"
            }
            context.terminal.err(UsageError(message, usage: root.usage).description)
            return 2
        }
        switch command.execute(Array(arguments.dropFirst()), context) {
        case .success(let status):
            return status
        case .failure(let error):
            if command.reportsAsJSON(arguments.dropFirst()) {
                context.terminal.out(error.jsonValue.prettyString())
            } else {
                context.terminal.err(error.text)
            }
            return error.exitStatus
        }
    }
}

extension Command {
    /// Whether a failure is reported as a JSON document on standard output: the command takes `--json` and the
    /// options (before any `--`) include it. Read from the words themselves, so that a command line that does not
    /// parse is reported as JSON too.
    static func reportsAsJSON(_ arguments: ArraySlice<String>) -> Bool {
        let json = SharedOptions.json.declaration.name
        return command.options.contains { $0.name == json } && arguments.prefix { $0 != "--" }.contains(json)
    }

    /// Parses the arguments for this command and runs it (or prints its help).
    static func execute(_ arguments: [String], _ context: CommandContext) -> Result<Int32, CLIError> {
        let parsed: ParsedCommandLine
        do {
            parsed = try ParsedCommandLine(arguments, for: command)
        } catch {
            return .failure(CLIError(error.message, usage: error.usage))
        }
        do {
            if parsed.wantsHelp {
                context.terminal.out(command.help)
                return .success(0)
            }
            return .success(try run(parsed, context))
        } catch {
            return .failure(error)
        }
    }
}
