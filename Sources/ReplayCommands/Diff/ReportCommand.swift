import CommandLineOptions
import Foundation
import StoreKitCore
import StoreKitReplay

/// `replay-cli report`: replay a session through the current reducers, like `diff`, and write one self-contained
/// HTML page of it (``HTMLReport``) with the divergence, gaps and drift marked.
///
/// Without a replay host named anywhere (no `--host`, `REPLAY_HOST` or `.replay.json`), or with `--no-replay`, the
/// page shows the recording alone and says so at its top; the command says so on stderr too and exits 0. A host
/// that is named but fails is trouble (exit 2), as for `diff`: the page is not written in its place.
enum ReportCommand: Command {
    /// `-o <file>`.
    static let output = Option<String>.string(
        "-o", valueName: "<file.html>", default: "report.html", help: "where to write the page")
    /// `--all`.
    static let all = Flag("--all", help: "mark every diverging step, not only the first")
    /// `--no-replay`.
    static let noReplay = Flag("--no-replay", help: "show the recording alone, without replaying it through a host")

    static let command = CommandDescription(
        name: "replay-cli report",
        abstract: "Write a session as one self-contained HTML page: its timeline, the state at each step, what each step changed, and where replay diverges.",
        arguments: [ArgumentDeclaration("<session>", help: "a recorded session (.jsonl), or '-' for standard input")],
        options: [output.declaration, all.declaration, noReplay.declaration] + SharedOptions.ignoring + [
            SharedOptions.host.declaration, SharedOptions.build.declaration, SharedOptions.noBuild.declaration,
            SharedOptions.timeout.declaration,
        ],
        discussion: "The page fetches nothing (inline style and script); open it in any browser. Without a replay host (no --host, REPLAY_HOST or .replay.json) or with --no-replay it shows the recording alone and says so. Exit status as diff: 0 same (or not replayed), 1 diverged or drifted, 2 trouble.")

    static func run(_ parsed: ParsedCommandLine, _ context: CommandContext) throws(CLIError) -> ExitStatus {
        let session = try SessionInput(parsed.positionals[0])
        defer { session.cleanUp() }
        let path = parsed.value(ofDefaulted: output)
        let ignoring = try IgnoredPaths.resolve(parsed, context: context)
        let hostOptions = parsed.isSet(noReplay) ? nil : try HostOptions.resolveIfNamed(parsed, context: context)
        guard let hostOptions else {
            let reason = parsed.isSet(noReplay)
                ? "not replayed (--no-replay): the recording alone, no divergence marked"
                : "not replayed: no replay host (pass --host, set REPLAY_HOST or add a .replay.json); the recording alone, no divergence marked"
            context.terminal.err("\(session.displayName): \(reason)")
                context.terminal.out(try write(session, outcome: nil, note: reason, to: path, context))
            return .ok
        }
        let identity = try hostOptions.bringUpToDate(context.terminal)
        let configuredIdentity = try ConfiguredIdentity.resolve(context)
        let outcome = try hostOptions.client.check(
            session,
            ReplayHostClient.Checking(findAll: parsed.isSet(all), ignoring: ignoring, identity: configuredIdentity.keys),
            progressOn: context.terminal)
        for warning in configuredIdentity.warnings(about: [outcome.report]) + IgnoredPaths.warnings(given: parsed, in: ignoring, session: session) {
            context.terminal.err(warning)
        }
        context.terminal.out(try write(session, outcome: outcome, note: nil, to: path, context))
        context.terminal.out(identity.summary)
        return outcome.exitStatus
    }

    /// Reads `session` in full, renders its page with what replaying it found (`outcome`, if replayed) and writes
    /// it to `path`, saying on a progress line which of the three it is at. `diff --report` writes its page here too.
    /// - Returns: What was written, for the caller to say: `wrote report.html: 42 actions (diverged), 81234 bytes`.
    static func write(
        _ session: SessionInput, outcome: ReplayHostClient.Outcome?, note: String?, to path: String, _ context: CommandContext
    ) throws(CLIError) -> String {
        let terminal = context.terminal
        defer { terminal.endProgress() }
        terminal.progress("report: reading \(session.displayName) (stage 1 of 3)...")
        let recorded = try session.readWhole()
        let actionCount = recorded.actions.count
        let drift = outcome.map(\.drift).flatMap { $0.isEmpty ? nil : $0 }
        terminal.progress("report: rendering the page of \(actionCount) steps (stage 2 of 3)...")
        let html = HTMLReport.render(
            session: recorded, report: outcome?.report, drift: drift, note: note, source: session.displayName)
        let bytes = Data(html.utf8)
        terminal.progress("report: writing \(bytes.count / 1_000_000) MB to \(path) (stage 3 of 3)...")
        let target = path.hasPrefix("/") ? path : context.currentDirectory + "/" + path
        do {
            try bytes.write(to: URL(fileURLWithPath: target))
        } catch {
            throw CLIError(.output, "cannot write the report: \(error.localizedDescription)", file: path)
        }
        let verdict = outcome.map { " (\($0.report.verdict.name))" } ?? " (not replayed)"
        let actions = ReplayReport.actionCount(actionCount, kept: recorded.actionsKeptWithoutStates)
        return "wrote \(path): \(actions)\(verdict), \(bytes.count) bytes"
    }
}
