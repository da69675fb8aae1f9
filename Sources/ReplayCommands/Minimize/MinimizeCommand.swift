import CommandLineOptions
import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// `replay-cli minimize`: the fewest actions that still diverge the same way (in a state or a rerun effect), or
/// still crash the host, written as a session that `diff` reproduces.
enum MinimizeCommand: Command {
    /// `-o <file>`.
    static let output = Option<String>.string("-o", valueName: "<file>", help: "where to write the smaller session (required)")
    /// `--timeout <seconds>`: the whole search's bound, not one host's silence.
    static let timeBound = Option<Int>.integer(
        "--timeout", valueName: "<seconds>", in: 1...86_400, default: 120,
        help: "stop after this long and write the smallest session found so far")

    static let command = CommandDescription(
        name: "replay-cli minimize",
        abstract: "Shrink a diverging session (or one that crashes the host) to the fewest actions that still do the same.",
        arguments: [ArgumentDeclaration("<session>", help: "a recorded session (.jsonl) that diverges or crashes the host")],
        options: [output.declaration, timeBound.declaration] + SharedOptions.ignoring
            + [SharedOptions.host.declaration, SharedOptions.build.declaration, SharedOptions.noBuild.declaration, SharedOptions.json.declaration],
        discussion: """
            Delta debugging over the app's own actions (an effect's actions go with the action that caused them); \
            every candidate is replayed through the current host. A divergence is kept when the same action takes \
            the same places from the same values to the same wrong ones; an effect divergence when the same effect, \
            started by the same action, diverges the same way (each kept action keeps its effects' calls, ends and \
            sent actions); a crash when the host crashes on an action of the same name. Exit status: 0 written, 2 \
            nothing to minimize or trouble.
            """)

    static func run(_ parsed: ParsedCommandLine, _ context: CommandContext) throws(CLIError) -> ExitStatus {
        guard let outputPath = parsed.value(of: output) else {
            throw CLIError("minimize needs '-o <file>' to write the smaller session to", usage: command.usage)
        }
        let seconds = parsed.value(ofDefaulted: timeBound)
        let deadline = Date(timeIntervalSinceNow: Double(seconds))
        let ignoring = try IgnoredPaths.resolve(parsed, context: context)
        let session = try SessionInput(parsed.positionals[0])
        defer { session.cleanUp() }
        let host = try HostCommand.locate(
            host: parsed.value(of: SharedOptions.host), build: parsed.value(of: SharedOptions.build), context: context)
        let identity = try host.bringUpToDate(skipBuild: parsed.isSet(SharedOptions.noBuild), terminal: context.terminal)
        context.terminal.err("minimizing \(session.displayName) within \(seconds) s (--timeout)")
        let outcome = try SessionMinimizer(
            replayer: HostCandidateReplayer(host: host), deadline: deadline, hostTimeout: Double(max(seconds, 30)), terminal: context.terminal, ignoring: ignoring)
            .minimize(session)
        let bytes = outcome.session.ndjson
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: outputPath), options: .atomic)
        } catch {
            throw CLIError(.output, "cannot write the smaller session to '\(outputPath)': \(error.localizedDescription)")
        }
        context.terminal.present(
            MinimizeResult(session: session.displayName, output: outputPath, outcome: outcome, timeBound: seconds, host: identity),
            json: parsed.isSet(SharedOptions.json))
        return .ok
    }
}
