import CommandLineOptions
import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// `replay-cli diff --baseline REV SESSION`: the session's actions replayed through the host built from `REV` and
/// through the current one, and the first step where the two versions disagree.
struct BaselineDiff {
    /// How the session is named.
    var session: String
    /// What the two replays came to.
    var comparison: BaselineComparison
    /// What replayed it on the current side.
    var host: HostIdentity

    /// Runs `diff --baseline` as `parsed` asks.
    static func run(_ parsed: ParsedCommandLine, _ context: CommandContext, ignoring: [JSONPathPattern]) throws(CLIError) -> ExitStatus {
        let session = try SessionInput(parsed.positionals[0])
        defer { session.cleanUp() }
        let hostOptions = try HostOptions.resolve(parsed, context: context)
        let revision = try BaselineRevision(parsed.value(of: BaselineRevision.option) ?? "").revision(for: session)
        let identity = try hostOptions.bringUpToDate(context.terminal)
        var baselines = BaselineHosts(current: hostOptions.host, terminal: context.terminal)
        let baseline = try baselines.baseline(revision)
        context.terminal.progress("replaying \(session.displayName) through the baseline \(baseline.host.shortCommit) and the current code...")
        let pair = BaselineComparison.pair(
            baseline: baseline.host, current: hostOptions.host, timeout: hostOptions.timeout, ignoring: ignoring,
            identity: try ConfiguredIdentity.resolve(context).keys)
        let compared = try pair.compare(session, stopsDisagree: true)
        context.terminal.endProgress()
        for warning in IgnoredPaths.warnings(given: parsed, in: ignoring, session: session) {
            context.terminal.err(warning)
        }
        let result = BaselineDiff(
            session: session.displayName,
            comparison: BaselineComparison(baseline: baseline.host, baselineHost: baseline.identity, comparison: compared),
            host: identity)
        context.terminal.present(result, json: parsed.isSet(SharedOptions.json))
        return result.comparison.exitStatus
    }
}

extension BaselineDiff: CommandOutput {
    var jsonValue: JSONValue {
        guard case .object(var members) = comparison.jsonValue else { return comparison.jsonValue }
        members["session"] = .string(session)
        members["host"] = host.jsonValue
        return .object(members)
    }

    func writeText(to terminal: Terminal) {
        terminal.out(comparison.explanationLines(source: session))
        terminal.out(host.summary)
        terminal.out("baseline " + comparison.baselineHost.summary)
    }
}
