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
    /// Runs the command and returns the exit status: 0 same/ok, 1 differences found, 2 trouble.
    static func run(_ parsed: ParsedCommandLine, _ context: CommandContext) throws(CLIError) -> Int32
}

extension Command {
    /// The subcommand's name as typed after `replay-cli`.
    static var name: String { String(command.name.dropFirst(ReplayCLI.programName.count + 1)) }
}

extension ParsedCommandLine {
    /// The value of an option declared with a default: given on the command line, else its default.
    func value<Value>(ofDefaulted option: Option<Value>) -> Value {
        guard let value = value(of: option) else { preconditionFailure("\(option.declaration.name) has no default") }
        return value
    }
}
