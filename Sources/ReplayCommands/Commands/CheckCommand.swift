import CommandLineOptions
import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import StoreKitSystem

/// `replay-cli check`: golden replay in CI: every session under the given paths, one line each, a summary,
/// and optionally JUnit XML.
enum CheckCommand: Command {
    /// `--jobs <n>`.
    static let jobs = Option<Int>.integer(
        "--jobs", in: 1...64, defaultDescription: "the number of cores", help: "replay n sessions at once, in one host process")
    /// `--junit <file>`.
    static let junit = Option<String>.string(
        "--junit", valueName: "<file>", help: "also write the results as JUnit XML for CI")
    /// `--artifacts <dir>`.
    static let artifacts = Option<String>.string(
        "--artifacts", valueName: "<dir>",
        help: "keep in this folder, for each failing session, its replayed session (<name>.replayed.jsonl) and HTML report (<name>.html)")
    /// `--summary <file>`.
    static let summary = Option<String>.string(
        "--summary", valueName: "<file>",
        help: "also write the results as a Markdown table for a CI job summary (such as $GITHUB_STEP_SUMMARY); appended to")

    static let command = CommandDescription(
        name: "replay-cli check", abstract: "Replay every session in the given files and folders; exit 1 if any diverged.",
        arguments: [
            ArgumentDeclaration("<path>", help: "session files (.jsonl) and folders to search for them", isRepeating: true)
        ],
        options: [jobs.declaration, junit.declaration, artifacts.declaration, summary.declaration, HostDeterminism.flag.declaration]
            + SharedOptions.ignoring + SharedOptions.replaying)

    /// One session's outcome.
    struct Result {
        var path: String
        var verdict: String
        var line: String
        var explanation: [RenderedLine]
        var status: Int32
        var json: JSONValue
        /// The step where the session failed, when known.
        var failedStep: Int?
        /// The action at that step, when known.
        var failedAction: String?
        /// The first path that differs (or does not decode), when known.
        var failedPath: String?
        /// The replay's report, when the host gave one.
        var report: ReplayReport?
        /// What `--artifacts` kept.
        var artifacts = CheckArtifacts.Kept()

        /// Takes what `--artifacts` kept into the result and its JSON.
        mutating func keep(_ kept: CheckArtifacts.Kept) {
            artifacts = kept
            if case .object(var fields) = json {
                fields["artifacts"] = .array(kept.paths.map(JSONValue.string))
                fields["artifactProblems"] = .array(kept.problems.map(JSONValue.string))
                json = .object(fields)
            }
        }

        /// The result as a row of the `--summary` table.
        var summaryRow: CheckSummary.Row {
            CheckSummary.Row(
                session: path, verdict: verdict, passed: status == 0, step: failedStep, action: failedAction, path: failedPath,
                artifacts: artifacts.paths, artifactProblems: artifacts.problems)
        }
    }

    static func run(_ parsed: ParsedCommandLine, _ context: CommandContext) throws(CLIError) -> Int32 {
        let ignoring = try IgnoredPaths.resolve(parsed, context: context)
        let paths = try sessionFiles(parsed.positionals)
        guard !paths.isEmpty else { throw CLIError(.input, "no session files (.jsonl) under \(parsed.positionals.map { "'\($0)'" }.joined(separator: ", "))") }
        let hostOptions = try HostOptions.resolve(parsed, context: context)
        let identity = try hostOptions.bringUpToDate(context.terminal)
        let replay = hostOptions.replay(context.terminal)
        let keeper = try parsed.value(of: artifacts).map { directory throws(CLIError) in
            try CheckArtifacts(directory: directory, sessions: paths)
        }
        let determinism = parsed.isSet(HostDeterminism.flag) ? HostDeterminism(host: hostOptions.host, timeout: hostOptions.timeout) : nil
        let jobs = parsed.value(of: jobs) ?? ProcessInfo.processInfo.activeProcessorCount
        let sessions = paths.map { SessionInput(file: $0) }
        var results: [Result?] = Array(repeating: nil, count: paths.count)
        var done = 0
        func progress() {
            done += 1
            context.terminal.progress("checked \(done) of \(paths.count) sessions")
        }
        if let determinism {
            let findings = madeInParallel(count: paths.count, jobs: jobs) { index in
                nondeterminism(of: sessions[index], determinism)
            }
            for (index, finding) in findings.enumerated() where finding != nil {
                results[index] = finding
                progress()
            }
        }
        let toCheck = results.indices.filter { results[$0] == nil }
        let outcomes = replay.check(
            toCheck.map { sessions[$0] }, HostReplay.Checking(ignoring: ignoring), jobs: jobs, onChecked: progress)
        for (index, outcome) in zip(toCheck, outcomes) {
            results[index] = result(of: paths[index], outcome)
        }
        if let keeper {
            let failing = results.indices.filter { results[$0]!.status != 0 }
            let reports = failing.map { results[$0]!.report }
            let kept = madeInParallel(count: failing.count, jobs: jobs) { position in
                keeper.keep(paths[failing[position]], report: reports[position], replay: replay)
            }
            for (position, index) in failing.enumerated() { results[index]!.keep(kept[position]) }
        }
        context.terminal.endProgress()
        let all = results.map { $0! }
        let counts = Dictionary(grouping: all, by: \.verdict).mapValues(\.count)
        let summary = "\(all.count) session\(all.count == 1 ? "" : "s"): "
            + counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        if let junit = parsed.value(of: junit) { try JUnitReport.write(all, host: identity, to: junit) }
        if let summaryPath = parsed.value(of: self.summary) {
            try append(CheckSummary(rows: all.map(\.summaryRow), counts: summary).markdown, to: summaryPath)
        }
        if parsed.isSet(SharedOptions.json) {
            context.terminal.out(
                JSONValue.object([
                    "sessions": .array(all.map(\.json)), "summary": .object(counts.mapValues { .integer(Int64($0)) }),
                    "host": identity.jsonValue,
                ]).prettyString())
        } else {
            for result in all {
                let mark = result.status == 0 ? context.terminal.green("✓") : context.terminal.red("✗")
                context.terminal.out(mark, " \(result.line)")
            }
            for result in all where result.status != 0 {
                context.terminal.out([RenderedLine(.text, "")] + result.explanation)
                let kept = result.artifacts.paths.map { "kept \($0)" } + result.artifacts.problems
                if !kept.isEmpty { context.terminal.out(kept.joined(separator: "\n")) }
            }
            context.terminal.out("\n" + summary)
            context.terminal.out(identity.summary)
        }
        return all.map(\.status).max() ?? 0
    }

    /// The result of a session whose two replays disagree; `nil` when they agree. A failure to replay is the
    /// session's error result.
    private static func nondeterminism(of session: SessionInput, _ determinism: HostDeterminism) -> Result? {
        let path = session.displayName
        do {
            guard let finding = try determinism.check(session) else { return nil }
            return Result(
                path: path, verdict: "nondeterministic",
                line: "nondeterministic \(path) (\(finding.actionCount) actions): \(finding.oneLine)",
                explanation: finding.explanationLines(source: path), status: 1,
                json: .object(["session": .string(path), "verdict": .string("nondeterministic"), "nondeterministic": finding.jsonValue]))
        } catch {
            return errorResult(path, error)
        }
    }

    /// The result of checking the session at `path`.
    private static func result(of path: String, _ checked: Swift.Result<HostReplay.Outcome, CLIError>) -> Result {
        let outcome: HostReplay.Outcome
        switch checked {
        case .success(let success): outcome = success
        case .failure(let error): return errorResult(path, error)
        }
        let report = outcome.report
        var line = "\(report.verdict.name.padding(toLength: 11, withPad: " ", startingAt: 0)) \(path) (\(report.actionCount) actions)"
        if case .diverged(let divergence) = report.verdict {
            line += ": step \(divergence.step) \(divergence.actionName.escapingControls()), \(divergence.diff.changes.first.map { "\($0.path)" } ?? "")"
        }
        if !outcome.drift.isEmpty { line += "; schema drift in \(outcome.drift.entries.count) kind(s) of value" }
        for ignored in report.ignored { line += "; ignored '\(ignored.pattern)' at \(ignored.steps) step\(ignored.steps == 1 ? "" : "s")" }
        let drift = outcome.drift.isEmpty ? [] : (outcome.drift.explanation + "\n").renderedLines(.text)
        let explanation = drift + report.explanationLines(source: path)
        let verdict = outcome.drift.isEmpty ? report.verdict.name : "drifted"
        var failedStep: Int?
        var failedAction: String?
        var failedPath: String?
        switch report.verdict {
        case .diverged(let divergence):
            failedStep = divergence.step
            failedAction = divergence.actionName
            failedPath = divergence.diff.changes.first.map { "\($0.path)" }
        case .undecodable(let undecodable):
            failedStep = undecodable.step
            failedAction = undecodable.actionName
            failedPath = "\(undecodable.part.rawValue) \(undecodable.path)"
        default:
            break
        }
        return Result(
            path: path, verdict: verdict, line: line, explanation: explanation, status: outcome.exitStatus,
            json: .object(["session": .string(path), "verdict": .string(verdict), "drift": outcome.drift.jsonValue, "report": report.jsonValue]),
            failedStep: failedStep, failedAction: failedAction, failedPath: failedPath, report: report)
    }

    /// The result of a session that could not be checked.
    private static func errorResult(_ path: String, _ error: CLIError) -> Result {
        Result(
            path: path, verdict: "error", line: "error       \(path): \(error.description)", explanation: [RenderedLine(.text, error.description)], status: 2,
            json: .object(["session": .string(path), "verdict": .string("error"), "error": .string(error.description)]))
    }

    /// Appends `markdown` to the file at `path` (created when missing), as a CI job summary file is written to.
    private static func append(_ markdown: String, to path: String) throws(CLIError) {
        guard FileManager.default.fileExists(atPath: path) || FileManager.default.createFile(atPath: path, contents: nil),
            let file = FileHandle(forWritingAtPath: path)
        else { throw CLIError(.output, "cannot write the summary to '\(path)'") }
        defer { try? file.close() }
        do {
            try file.seekToEnd()
            try file.write(contentsOf: Data(markdown.utf8))
        } catch {
            throw CLIError(.output, "cannot write the summary to '\(path)': \(error.localizedDescription)")
        }
    }

    /// The session files under `arguments`, in a stable order.
    private static func sessionFiles(_ arguments: [String]) throws(CLIError) -> [String] {
        var files: [String] = []
        for argument in arguments {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) else {
                throw CLIError(.input, "no such file or folder '\(argument)'")
            }
            if !isDirectory.boolValue {
                files.append(argument)
                continue
            }
            let found = FileManager.default.enumerator(atPath: argument)?.compactMap { $0 as? String } ?? []
            files += found.filter { $0.hasSuffix(".jsonl") }.sorted().map { URL(fileURLWithPath: argument).appendingPathComponent($0).relativePath }
        }
        return files
    }

    /// `count` values made by `make`, `jobs` at a time on their own threads, in order.
    private static func madeInParallel<Value>(count: Int, jobs: Int, _ make: @escaping @Sendable (Int) -> Value) -> [Value] {
        let made = Locked([Value?](repeating: nil, count: count))
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = jobs
        for index in 0..<count {
            queue.addOperation {
                let value = make(index)
                made.withLock { $0[index] = value }
            }
        }
        queue.waitUntilAllOperationsAreFinished()
        return made.withLock { $0.map { $0! } }
    }
}
