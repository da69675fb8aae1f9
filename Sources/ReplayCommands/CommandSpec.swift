import StoreKitCore
import StoreKitReplay

/// One option of a command.
struct OptionSpec {
    /// `--json`.
    var name: String
    /// `<n>` for options that take a value; `nil` for flags.
    var valueName: String?
    /// One line of help.
    var help: String
}

/// What a command needs besides its arguments.
struct CommandContext {
    var terminal: Terminal
    var environment: [String: String]
    var currentDirectory: String
}

/// A subcommand: its name, one-line abstract, arguments, options and `run`.
protocol Command: Sendable {
    static var name: String { get }
    static var abstract: String { get }
    static var usage: String { get }
    static var arguments: [(String, String)] { get }
    static var options: [OptionSpec] { get }
    /// Runs the command and returns the exit status: 0 same/ok, 1 differences found, 2 trouble.
    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws(CLIError) -> Int32
}

/// Options every command takes.
enum CommonOptions {
    static let json = OptionSpec(name: "--json", valueName: nil, help: "print one JSON document instead of text")
    static let help = OptionSpec(name: "--help", valueName: nil, help: "show this help")
    static let host = OptionSpec(
        name: "--host", valueName: "<command>",
        help: "the replay host to run (default: $REPLAY_HOST, else .replay.json here or in a parent)")
    static let build = OptionSpec(
        name: "--build", valueName: "<command>",
        help: "build the host with this before replaying (default: $REPLAY_BUILD, else .replay.json's 'build')")
    static let noBuild = OptionSpec(
        name: "--no-build", valueName: nil, help: "replay through the host as it is, without its build step")
    /// The options of every command that replays: which host, how to build it, how long to wait for it.
    static let replaying = [host, build, noBuild, timeout]
    static let timeout = OptionSpec(
        name: "--timeout", valueName: "<seconds>", help: "give up on a host that stays silent this long (default: 30)")
}

extension Command {
    /// The command's help, in fixed sections.
    static var help: String {
        var lines = ["OVERVIEW: \(abstract)", "", "USAGE: \(usage)"]
        if !arguments.isEmpty {
            lines += ["", "ARGUMENTS:"] + arguments.map { "  " + $0.0.padding(toLength: 22, withPad: " ", startingAt: 0) + $0.1 }
        }
        lines += ["", "OPTIONS:"]
        for option in options + [CommonOptions.help] {
            let label = option.valueName.map { "\(option.name) \($0)" } ?? option.name
            lines.append("  " + label.padding(toLength: 22, withPad: " ", startingAt: 0) + option.help)
        }
        return lines.joined(separator: "\n")
    }
}
