/// A command line checked against its ``CommandDescription``: the positional arguments, and typed access to the
/// options by their declarations.
///
/// ```swift
/// let parsed = try ParsedCommandLine(arguments, for: description)
/// if parsed.wantsHelp { print(description.help); return 0 }
/// let timeout = parsed.value(of: HostOptions.timeout)   // typed, default applied
/// ```
public struct ParsedCommandLine: Sendable {
    /// The positional arguments, in order (`-` counts as one).
    public private(set) var positionals: [String] = []
    /// Each option's values by its long name, in order; a flag has one empty value per time it was given.
    private var values: [String: [String]] = [:]

    /// Parses `arguments` (without the program and command names) for `command`.
    /// - Throws: ``UsageError`` for an unknown option (with a near-miss suggestion), a missing or invalid value,
    ///   or too few or too many positional arguments. Asking for help is not an error: see ``wantsHelp``.
    public init(_ arguments: [String], for command: CommandDescription) throws(UsageError) {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if argument == "-" || !argument.hasPrefix("-") {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                positionals += remaining
                break
            }
            var spelling = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                spelling = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let option = command.options.first(where: { $0.isNamed(spelling) }) else {
                var message = "unknown option '\(spelling)'"
                let names = command.options.flatMap { [$0.name] + $0.aliases }
                if let suggestion = Suggestion.closest(to: spelling, among: names) {
                    message += "\nDid you mean '\(suggestion)'?"
                }
                throw UsageError(message, usage: command.usage)
            }
            guard let valueName = option.valueName else {
                if inlineValue != nil {
                    throw UsageError("option '\(option.name)' takes no value", usage: command.usage)
                }
                values[option.name, default: []].append("")
                continue
            }
            guard let value = inlineValue ?? remaining.popFirst() else {
                throw UsageError("option '\(option.name)' needs a value \(valueName)", usage: command.usage)
            }
            if let expectation = option.check(value) {
                throw UsageError("option '\(option.name)' needs \(expectation), not '\(value)'", usage: command.usage)
            }
            values[option.name, default: []].append(value)
        }
        if !wantsHelp { try checkPositionals(command) }
    }

    private func checkPositionals(_ command: CommandDescription) throws(UsageError) {
        let required = command.arguments.filter { !$0.isOptional }
        if positionals.count < required.count {
            let missing = required[positionals.count...].map { "'\($0.name)'" }.joined(separator: ", ")
            throw UsageError("missing \(missing)", usage: command.usage)
        }
        let repeats = command.arguments.contains(where: \.isRepeating)
        if !repeats && positionals.count > command.arguments.count {
            throw UsageError("unexpected argument '\(positionals[command.arguments.count])'", usage: command.usage)
        }
    }

    /// Whether `-h` or `--help` was given.
    public var wantsHelp: Bool { isSet(Flag.help) }

    /// Whether `flag` was given.
    public func isSet(_ flag: Flag) -> Bool { values[flag.declaration.name] != nil }

    /// The option's value, its default when the command line does not give it; `nil` when it has neither.
    public func value<Value>(of option: Option<Value>) -> Value? {
        guard let text = values[option.declaration.name]?.last else { return option.defaultValue }
        // The parser checked the text with this option's own conversion.
        return option.convert(text)
    }

    /// The option's value, which always exists because the option has a default.
    /// - Precondition: `option` was declared with a default.
    public func value<Value>(of option: Option<Value>, default: Value) -> Value {
        value(of: option) ?? `default`
    }

    /// Every value given for `option`, in order (for options that may be repeated).
    public func values<Value>(of option: Option<Value>) -> [Value] {
        (values[option.declaration.name] ?? []).compactMap(option.convert)
    }

    /// Whether `option` was given on the command line (rather than taking its default).
    public func isGiven<Value>(_ option: Option<Value>) -> Bool { values[option.declaration.name] != nil }
}
