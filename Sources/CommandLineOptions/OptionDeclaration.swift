/// What the parser, the usage line and the help know of one option: its names, the value it takes and its help.
///
/// Typed options (``Option``) and flags (``Flag``) each hold one; a command lists them in its
/// ``CommandDescription``, and everything the command line shows of an option comes from here.
public struct OptionDeclaration: Sendable {
    /// The long name, such as `--timeout`.
    public var name: String
    /// Other spellings, such as `-h`.
    public var aliases: [String]
    /// The value's placeholder, such as `<seconds>`; `nil` for a flag.
    public var valueName: String?
    /// One line (or a few) of help.
    public var help: String
    /// Whether the command needs it: the usage line shows it without brackets. The command checks its presence
    /// itself, where it can say what is missing and why.
    public var isRequired = false
    /// Checks a value's text: `nil` when valid, else what a valid value is (`a whole number from 1 to 64`).
    let check: @Sendable (String) -> String?

    /// Declares an option.
    /// - Parameters:
    ///   - name: The long name, with its dashes.
    ///   - aliases: Other spellings.
    ///   - valueName: The value's placeholder, or `nil` for a flag.
    ///   - help: What the option does, with its default.
    ///   - check: Checks a value's text; `nil` when valid, else what a valid value is.
    public init(
        name: String, aliases: [String] = [], valueName: String?, help: String,
        check: @escaping @Sendable (String) -> String? = { _ in nil }
    ) {
        self.name = name
        self.aliases = aliases
        self.valueName = valueName
        self.help = help
        self.check = check
    }

    /// Whether `spelling` names this option.
    func isNamed(_ spelling: String) -> Bool { spelling == name || aliases.contains(spelling) }

    /// `--timeout <seconds>`, or `--help`, as the usage line shows it: in brackets unless required.
    var usage: String {
        let spelled = valueName.map { "\(name) \($0)" } ?? name
        return isRequired ? spelled : "[\(spelled)]"
    }

    /// `--timeout <seconds>`, or `-h, --help`.
    var label: String {
        let names = (aliases + [name]).joined(separator: ", ")
        return valueName.map { "\(names) \($0)" } ?? names
    }
}
