import CommandLineOptions

/// The sample app's command line.
struct SampleAppOptions {
    /// Which sample feature to drive.
    enum Feature: String, CaseIterable {
        case counter, todos, scoreboard, rehearsals, groceries
    }

    var feature = Feature.todos
    var outputPath: String?
    var socketPath: String?
    var actions = 40
    var seed: UInt64 = 1
    var deltaSnapshots = false
    var socketTimeout = 2.0

    static let featureOption = Option<Feature>.choice(
        "--feature", valueName: "<name>", default: .todos, help: "counter, todos, scoreboard, rehearsals or groceries")
    static let out = Option<String>.string("--out", valueName: "<file>", help: "where to write the session (NDJSON)")
    static let socket = Option<String>.string(
        "--socket", valueName: "<path>",
        help: "stream the session to replayd at this socket instead ('default' for the\ndefault socket)")
    static let timeout = Option<Double>.seconds(
        "--timeout", valueName: "<s>", upTo: 3600, default: 2, help: "how long to wait for replayd's answers, in seconds")
    static let actionCount = Option<Int>.integer(
        "--actions", in: 0...10_000_000, default: 40, help: "how many user actions to dispatch")
    static let seedOption = Option<UInt64>.unsigned(
        "--seed", default: 1, help: "the script's random seed, for a reproducible session")
    static let delta = Flag("--delta", help: "store states as patches with keyframes (delta snapshots)")

    /// The command line as `--help` shows it.
    static let command = CommandDescription(
        name: "sample-app", abstract: "A scripted sample app that drives one sample feature and records the session.",
        options: [
            featureOption.declaration, out.declaration, socket.declaration, timeout.declaration,
            actionCount.declaration, seedOption.declaration, delta.declaration,
        ],
        discussion: "Give one of '--out <file>' and '--socket <path>'.")

    /// Parses `arguments` (without the program name); `nil` when help was asked for.
    /// - Throws: ``UsageError`` naming the offending option.
    static func parse(_ arguments: [String]) throws(UsageError) -> SampleAppOptions? {
        let parsed = try ParsedCommandLine(arguments, for: command)
        if parsed.wantsHelp { return nil }
        var options = SampleAppOptions()
        options.feature = parsed.value(of: featureOption, default: options.feature)
        options.outputPath = parsed.value(of: out)
        options.socketPath = parsed.value(of: socket)
        options.socketTimeout = parsed.value(of: timeout, default: options.socketTimeout)
        options.actions = parsed.value(of: actionCount, default: options.actions)
        options.seed = parsed.value(of: seedOption, default: options.seed)
        options.deltaSnapshots = parsed.isSet(delta)
        guard (options.outputPath == nil) != (options.socketPath == nil) else {
            throw UsageError("give one of '--out <file>' and '--socket <path>'", usage: command.usage)
        }
        return options
    }
}
