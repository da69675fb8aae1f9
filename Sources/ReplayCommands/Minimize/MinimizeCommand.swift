import CommandLineOptions
import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// `replay-cli minimize`: the fewest actions on which the current code still differs from a baseline the same way (in
/// a state or a rerun effect, or by crashing), written as a session that fails through the current code and matches
/// through the baseline.
enum MinimizeCommand: Command {
    /// `-o <file>`.
    static let output = Option<String>.string("-o", valueName: "<file>", help: "where to write the smaller session (required)").required()
    /// `--timeout <seconds>`: the whole search's bound, not one host's silence.
    static let timeBound = Option<Int>.integer(
        "--timeout", valueName: "<seconds>", in: 1...86_400, default: 120,
        help: "stop after this long and write the smallest session found so far")
    /// `--without-baseline`.
    static let withoutBaseline = Flag(
        "--without-baseline",
        help: "judge candidates by the current code alone: the result is not checked against a correct version")

    static let command = CommandDescription(
        name: "replay-cli minimize",
        abstract: "Shrink a session on which the current code goes wrong to the fewest actions on which it still does.",
        arguments: [ArgumentDeclaration("<session>", help: "a recorded session (.jsonl) that diverges or crashes the host")],
        options: [output.declaration, timeBound.declaration, BaselineRevision.option.declaration, withoutBaseline.declaration]
            + SharedOptions.ignoring
            + [SharedOptions.host.declaration, SharedOptions.build.declaration, SharedOptions.noBuild.declaration, SharedOptions.json.declaration],
        discussion: """
            Delta debugging over the app's own actions (an effect's actions go with the action that caused them). \
            Every candidate is written with the baseline's states (--baseline, by default the commit the session \
            was recorded from) and kept when the current code differs from them as on the whole session (the same \
            places by the same action, the same effect run the same way, or a crash on the same action) and the \
            baseline replays it as a match; so the written session diverges through the current code and matches \
            through the baseline. Without a baseline, minimize refuses unless given --without-baseline. Exit \
            status: 0 written, 2 nothing to minimize or trouble.
            """)

    static func run(_ parsed: ParsedCommandLine, _ context: CommandContext) throws(CLIError) -> ExitStatus {
        guard let outputPath = parsed.value(of: output) else {
            throw CLIError("minimize needs '-o <file>' to write the smaller session to", usage: command.usage)
        }
        let seconds = parsed.value(ofDefaulted: timeBound)
        let deadline = Date(timeIntervalSinceNow: Double(seconds))
        let ignoring = try IgnoredPaths.resolve(parsed, context: context)
        let identityKeys = try ConfiguredIdentity.resolve(context).keys
        let session = try SessionInput(parsed.positionals[0])
        defer { session.cleanUp() }
        let revision = try baselineRevision(parsed, session: session)?.revision(for: session)
        let host = try HostCommand.locate(
            host: parsed.value(of: SharedOptions.host), build: parsed.value(of: SharedOptions.build), context: context)
        let identity = try host.bringUpToDate(skipBuild: parsed.isSet(SharedOptions.noBuild), terminal: context.terminal)
        var baselines = BaselineHosts(current: host, terminal: context.terminal)
        let baseline = try revision.map { revision throws(CLIError) in try baselines.baseline(revision) }
        let against = baseline.map { " against the baseline \($0.host.shortCommit)" } ?? ""
        context.terminal.err("minimizing \(session.displayName)\(against) within \(seconds) s (--timeout)")
        let outcome = try SessionMinimizer(
            replayer: HostCandidateReplayer(host: host, identity: identityKeys),
            baseline: baseline.map {
                SessionMinimizer.Baseline(replayer: HostCandidateReplayer(host: $0.host.host, identity: identityKeys), commit: $0.host.commit, title: $0.host.title)
            },
            deadline: deadline, hostTimeout: Double(max(seconds, 30)), terminal: context.terminal, ignoring: ignoring
        ).minimize(session)
        let bytes = outcome.session.ndjson
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: outputPath), options: .atomic)
        } catch {
            throw CLIError(.output, "cannot write the smaller session to '\(outputPath)': \(error.localizedDescription)")
        }
        context.terminal.present(
            MinimizeResult(
                session: session.displayName, output: outputPath, outcome: outcome, timeBound: seconds, host: identity,
                baseline: baseline.map { MinimizeResult.CheckedBaseline(host: $0.host, identity: $0.identity) }),
            json: parsed.isSet(SharedOptions.json))
        return .ok
    }

    /// The baseline to check candidates against: `--baseline`'s, else the commit the session was recorded from;
    /// `nil` with `--without-baseline`.
    /// - Throws: ``CLIError`` when there is neither and `--without-baseline` is not given, or both options are.
    private static func baselineRevision(_ parsed: ParsedCommandLine, session: SessionInput) throws(CLIError) -> BaselineRevision? {
        let given = parsed.value(of: BaselineRevision.option)
        if parsed.isSet(withoutBaseline) {
            guard given == nil else {
                throw CLIError("'--baseline' and '--without-baseline' do not go together", usage: command.usage)
            }
            return nil
        }
        if let given { return BaselineRevision(given) }
        guard try BaselineRevision.recordedCommit(of: session) != nil else {
            throw CLIError(
                "minimize needs a correct version of the code to check a smaller session against, and \(session.displayName)'s header names no commit it was recorded from: give '--baseline <rev>' (a git revision that replays the session correctly, such as origin/main), or '--without-baseline' to judge by the current code alone, unchecked",
                usage: command.usage)
        }
        return .recorded
    }
}
