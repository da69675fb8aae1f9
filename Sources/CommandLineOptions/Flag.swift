/// An option without a value: present or not.
///
/// ```swift
/// static let json = Flag("--json", help: "print one JSON document instead of text")
/// if parsed.isSet(json) { ... }
/// ```
public struct Flag: Sendable {
    /// Its names and help.
    public let declaration: OptionDeclaration

    /// Declares a flag.
    public init(_ name: String, aliases: [String] = [], help: String) {
        self.declaration = OptionDeclaration(name: name, aliases: aliases, valueName: nil, help: help)
    }

    /// `-h, --help`, which every command takes.
    public static let help = Flag("--help", aliases: ["-h"], help: "show this help")
}
