import CommandLineOptions
import StoreKitCore
import StoreKitReplay

/// What a command needs besides its arguments.
package struct CommandContext {
    /// Where the command writes.
    package var terminal: Terminal
    /// The environment (`REPLAY_HOST`, `REPLAY_BUILD`, `NO_COLOR`, `XDG_STATE_HOME` ...).
    package var environment: [String: String]
    /// The directory relative paths and `.replay.json` are looked up from.
    package var currentDirectory: String

    /// Creates a context.
    package init(terminal: Terminal, environment: [String: String], currentDirectory: String) {
        self.terminal = terminal
        self.environment = environment
        self.currentDirectory = currentDirectory
    }
}

/// A subcommand: its declaration (name, abstract, arguments, typed options) and `run`.
protocol Command: Sendable {
    /// Everything the command line shows of the command; parsing checks arguments against it.
    static var command: CommandDescription { get }
    /// Runs the command and returns how it ends: ok, differences found, or (thrown) trouble.
    static func run(_ parsed: ParsedCommandLine, _ context: CommandContext) throws(CLIError) -> ExitStatus
}

extension Command {
    /// The subcommand's name as typed after the program's name (`diff` for `replay-cli diff`).
    static var name: String { String(command.name.drop { $0 != " " }.dropFirst()) }

    /// Whether a failure is reported as a JSON document on standard output: the command takes `--json` and the
    /// options (before any `--`) include it. Read from the words themselves, so that a command line that does not
    /// parse is reported as JSON too.
    static func reportsAsJSON(_ arguments: ArraySlice<String>) -> Bool {
        let json = SharedOptions.json.declaration.name
        return command.options.contains { $0.name == json } && arguments.prefix { $0 != "--" }.contains(json)
    }

    /// Parses the arguments for this command and runs it (or prints its help).
    static func execute(_ arguments: [String], _ context: CommandContext) -> Result<ExitStatus, CLIError> {
        let parsed: ParsedCommandLine
        do {
            parsed = try ParsedCommandLine(arguments, for: command)
        } catch {
            return .failure(CLIError(error.message, usage: error.usage))
        }
        do {
            if parsed.wantsHelp {
                context.terminal.out(command.help)
                return .success(.ok)
            }
            var context = context
            // Progress lines are for a person watching a terminal; a JSON document is for a program.
            if reportsAsJSON(arguments[...]) { context.terminal = context.terminal.withoutProgress }
            return .success(try run(parsed, context))
        } catch {
            return .failure(error)
        }
    }
}

extension ParsedCommandLine {
    /// The value of an option declared with a default: given on the command line, else its default.
    func value<Value>(ofDefaulted option: Option<Value>) -> Value {
        guard let value = value(of: option) else { preconditionFailure("\(option.declaration.name) has no default") }
        return value
    }
}
