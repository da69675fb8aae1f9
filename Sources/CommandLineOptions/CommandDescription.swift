/// A command as its users see it: its name, what it does, its arguments and options, and its subcommands.
///
/// The parser checks a command line against it, and ``help`` and ``usage`` are rendered from it, so nothing a
/// user reads about an option is written twice.
public struct CommandDescription: Sendable {
    /// The command as typed, such as `replay-cli diff`.
    public var name: String
    /// One line: what the command does.
    public var abstract: String
    /// Positional arguments, in order.
    public var arguments: [ArgumentDeclaration]
    /// Options and flags; `-h, --help` is added to every command.
    public var options: [OptionDeclaration]
    /// Other ways to call the command, each a usage line after the command's name (`--states <old> <new>`).
    public var alternativeUsages: [String]
    /// Paragraphs shown after the options.
    public var discussion: String?
    /// Subcommands, for a command that has them.
    public var subcommands: [CommandDescription]

    /// Describes a command.
    public init(
        name: String, abstract: String, arguments: [ArgumentDeclaration] = [], options: [OptionDeclaration] = [],
        alternativeUsages: [String] = [], discussion: String? = nil, subcommands: [CommandDescription] = []
    ) {
        self.name = name
        self.abstract = abstract
        self.arguments = arguments
        self.options = options + [Flag.help.declaration]
        self.alternativeUsages = alternativeUsages
        self.discussion = discussion
        self.subcommands = subcommands
    }

    /// The usage line: `replay-cli diff <session> [<other-session>] [--all] [--context <n>] ...`.
    public var usage: String {
        if !subcommands.isEmpty { return "\(name) <subcommand> [<arguments>] [--help]" }
        let options = self.options.filter { !$0.isNamed("--help") }.map(\.usage)
        return ([name] + arguments.map(\.usage) + options).joined(separator: " ")
    }

    /// The help text, in fixed sections: OVERVIEW, USAGE, ARGUMENTS, OPTIONS, SUBCOMMANDS, then the discussion.
    public var help: String {
        var lines = ["OVERVIEW: \(abstract)", "", "USAGE: \(usage)"]
        lines += alternativeUsages.map { "       \(name) \($0)" }
        if !arguments.isEmpty {
            lines += ["", "ARGUMENTS:"] + arguments.flatMap { Self.entry($0.name, $0.help) }
        }
        if subcommands.isEmpty {
            lines += ["", "OPTIONS:"] + options.flatMap { Self.entry($0.label, $0.help) }
        } else {
            let prefix = name + " "
            lines += ["", "SUBCOMMANDS:"]
            lines += subcommands.flatMap { Self.entry(String($0.name.dropFirst(prefix.count)), $0.abstract) }
            lines += ["", "See '\(name) <subcommand> --help' for details."]
        }
        if let discussion { lines += ["", discussion] }
        return lines.joined(separator: "\n")
    }

    /// The width of the label column in help.
    private static let labelWidth = 22

    /// One entry of a help section: the label, then its help (on the next line when the label is too long).
    private static func entry(_ label: String, _ help: String) -> [String] {
        let indent = String(repeating: " ", count: labelWidth + 2)
        var helpLines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var lines: [String] = []
        if label.count + 2 > labelWidth {
            lines.append("  " + label)
        } else {
            lines.append("  " + label + String(repeating: " ", count: labelWidth - label.count) + helpLines.removeFirst())
        }
        lines += helpLines.map { indent + $0 }
        return lines
    }
}
