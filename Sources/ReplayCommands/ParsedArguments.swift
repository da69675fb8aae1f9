import StoreKitCore
import StoreKitReplay

/// A command line split into positionals, flags and option values, checked against the command's options.
struct ParsedArguments {
    var positionals: [String] = []
    var flags: Set<String> = []
    var values: [String: String] = [:]

    /// Parses `arguments` for a command with `options`.
    /// - Throws: ``CLIError`` for an unknown option (with a near-miss suggestion) or a missing value.
    init(_ arguments: [String], options: [OptionSpec], usage: String) throws(CLIError) {
        var remaining = arguments[...]
        let known = options + [CommonOptions.help, OptionSpec(name: "-h", valueName: nil, help: "")]
        while let argument = remaining.popFirst() {
            if argument == "-" || !argument.hasPrefix("-") {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                positionals += remaining
                break
            }
            let (name, inlineValue) = Self.split(argument)
            guard let option = known.first(where: { $0.name == name }) else {
                var message = "unknown option '\(name)'"
                if let suggestion = Suggestion.closest(to: name, among: known.map(\.name)) {
                    message += "\nDid you mean '\(suggestion)'?"
                }
                throw CLIError(message, usage: usage)
            }
            if option.valueName == nil {
                flags.insert(name == "-h" ? "--help" : name)
            } else if let value = inlineValue ?? remaining.popFirst() {
                values[name] = value
            } else {
                throw CLIError("option '\(name)' needs a value \(option.valueName ?? "")", usage: usage)
            }
        }
    }

    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// The value of an integer option, checked against `range`.
    func integer(_ name: String, in range: ClosedRange<Int>, usage: String) throws(CLIError) -> Int? {
        guard let text = values[name] else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw CLIError("option '\(name)' needs a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'", usage: usage)
        }
        return value
    }
}

/// Finds a near miss for a mistyped word.
enum Suggestion {
    static func closest(to word: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, distance(word, $0)) }.filter { $0.1 <= max(2, word.count / 3) }
        return scored.min { $0.1 < $1.1 }?.0
    }

    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
