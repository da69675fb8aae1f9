/// The sample app's command line.
struct SampleAppOptions {
    /// Which sample feature to drive.
    enum Feature: String, CaseIterable {
        case counter, todos, scoreboard
    }

    var feature = Feature.todos
    var outputPath: String?
    var socketPath: String?
    var actions = 40
    var seed: UInt64 = 1
    var deltaSnapshots = false
    var socketTimeout = 2.0

    static let usage = """
        OVERVIEW: A scripted sample app that drives one sample feature and records the session.

        USAGE: sample-app [--feature <name>] (--out <file> | --socket <path> [--timeout <s>]) [--actions <n>] [--seed <n>] [--delta]

        OPTIONS:
          --feature <name>   counter, todos or scoreboard (default: todos)
          --out <file>       where to write the session (NDJSON)
          --socket <path>    stream the session to replayd at this socket instead ('default' for the
                             default socket)
          --timeout <s>      how long to wait for replayd's answers, in seconds (default: 2)
          --actions <n>      how many user actions to dispatch (default: 40)
          --seed <n>         the script's random seed, for a reproducible session (default: 1)
          --delta            store states as patches with keyframes (delta snapshots)
          -h, --help         show this help
        """

    /// Why the command line could not be parsed.
    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    /// Parses `arguments` (without the program name); `nil` when help was asked for.
    static func parse(_ arguments: [String]) throws(UsageError) -> SampleAppOptions? {
        var options = SampleAppOptions()
        var remaining = arguments[...]
        func value(for flag: String) throws(UsageError) -> String {
            guard let value = remaining.popFirst() else { throw UsageError(description: "'\(flag)' needs a value") }
            return value
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "-h", "--help":
                return nil
            case "--feature":
                let name = try value(for: argument)
                guard let feature = Feature(rawValue: name) else {
                    let known = Feature.allCases.map(\.rawValue).joined(separator: ", ")
                    throw UsageError(description: "unknown feature '\(name)'; expected one of \(known)")
                }
                options.feature = feature
            case "--delta":
                options.deltaSnapshots = true
            case "--out":
                options.outputPath = try value(for: argument)
            case "--socket":
                options.socketPath = try value(for: argument)
            case "--actions":
                let text = try value(for: argument)
                guard let count = Int(text), count >= 0 else {
                    throw UsageError(description: "'--actions' needs a non-negative whole number, not '\(text)'")
                }
                options.actions = count
            case "--timeout":
                let text = try value(for: argument)
                guard let seconds = Double(text), seconds > 0, seconds <= 3600 else {
                    throw UsageError(description: "'--timeout' needs a number of seconds above 0 and up to 3600, not '\(text)'")
                }
                options.socketTimeout = seconds
            case "--seed":
                let text = try value(for: argument)
                guard let seed = UInt64(text) else {
                    throw UsageError(description: "'--seed' needs a non-negative whole number, not '\(text)'")
                }
                options.seed = seed
            default:
                throw UsageError(description: "unknown option '\(argument)'")
            }
        }
        guard (options.outputPath == nil) != (options.socketPath == nil) else {
            throw UsageError(description: "give one of '--out <file>' and '--socket <path>'")
        }
        return options
    }
}
