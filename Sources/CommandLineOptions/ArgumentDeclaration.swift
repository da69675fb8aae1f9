/// A positional argument as usage and help show it.
public struct ArgumentDeclaration: Sendable, Hashable {
    /// The placeholder, such as `<session>`.
    public var name: String
    /// What it is.
    public var help: String
    /// Whether it may be left out (`[<other-session>]` in usage).
    public var isOptional: Bool
    /// Whether it may be given several times (`<session> ...` in usage).
    public var isRepeating: Bool

    /// Declares a positional argument.
    public init(_ name: String, help: String, isOptional: Bool = false, isRepeating: Bool = false) {
        self.name = name
        self.help = help
        self.isOptional = isOptional
        self.isRepeating = isRepeating
    }

    /// `<session>`, `[<other-session>]`, `<session> ...`.
    var usage: String {
        let repeated = isRepeating ? "\(name) ..." : name
        return isOptional ? "[\(repeated)]" : repeated
    }
}
