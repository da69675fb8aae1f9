import StoreKitReplay

/// A name from the command line that `export-test` writes into Swift source as code (the test type, a module it
/// imports, the app's types), checked before anything is written: a name is never a way to write other code.
enum SwiftName {
    /// What a name is used as.
    enum Kind {
        /// A type declared by the test: one identifier, such as `TodosBugTests`.
        case declaredType
        /// A type the test names: identifiers joined by dots, such as `Todos.State`.
        case type
        /// A module the test imports: identifiers joined by dots, such as `SampleFeatures`.
        case module

        /// What an error calls it.
        var noun: String {
            switch self {
            case .declaredType, .type: "type name"
            case .module: "module name"
            }
        }
    }

    /// The words Swift reserves, which a name cannot be without backticks, and the type names a declaration or a
    /// qualified type cannot take (`Self`, `Any`, `Type`, `Protocol`).
    static let keywords: Set<Substring> = [
        "Any", "Protocol", "Self", "Type", "_", "as", "associatedtype", "await", "break", "case", "catch", "class",
        "continue", "default", "defer", "deinit", "do", "else", "enum", "extension", "fallthrough", "false", "fileprivate",
        "for", "func", "guard", "if", "import", "in", "init", "inout", "internal", "is", "let", "nil", "operator",
        "precedencegroup", "private", "protocol", "public", "repeat", "rethrows", "return", "self", "static", "struct",
        "subscript", "super", "switch", "throw", "throws", "true", "try", "typealias", "var", "where", "while",
    ]

    /// Why `name` cannot be used as `kind` in a test importing `modules`, or nil when it can.
    ///
    /// A name is ASCII letters, digits and `_`, not starting with a digit (joined by dots, but for a declared type),
    /// and not a keyword; a declared type is not one of `modules`, which it would hide.
    static func problem(with name: String, as kind: Kind, importing modules: [String] = []) -> String? {
        let parts = kind == .declaredType ? [Substring(name)] : name.split(separator: ".", omittingEmptySubsequences: false)
        let shape = "letters, digits and _, not starting with a digit" + (kind == .declaredType ? "" : ", joined by dots")
        for part in parts {
            guard let first = part.first, first.isASCII, first.isLetter || first == "_",
                part.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
            else { return "use \(shape)" }
            if keywords.contains(part) { return "'\(part)' is a Swift keyword" }
        }
        if kind == .declaredType, modules.contains(name) {
            return "'\(name)' is a module the test imports, which a type of that name would hide"
        }
        return nil
    }

    /// Checks that `name`, given to `option`, can be used as `kind`.
    ///
    /// - Throws: A usage error naming `option` and the name (its invisible characters escaped) and saying why not.
    static func check(_ name: String, as kind: Kind, givenTo option: String, usage: String) throws(CLIError) {
        if let problem = problem(with: name, as: kind) {
            throw CLIError("\(option) '\(InvisibleScalars.shown(name))' is not a Swift \(kind.noun): \(problem)", usage: usage)
        }
    }
}
