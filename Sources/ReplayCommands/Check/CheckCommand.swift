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
        options: [
            jobs.declaration, SessionShard.option.declaration, junit.declaration, artifacts.declaration, summary.declaration,
            HostDeterminism.flag.declaration,
            BaselineRevision.option.declaration,
        ]
            + SharedOptions.ignoring + SharedOptions.replaying,
        discussion: """
            With --baseline, each session is replayed through the host built from that revision as well as the \
            current one, and the verdict is 'same' or 'changed' (the first step where the two versions disagree, \
            whatever the recorded states say): for pull-request CI, '--baseline origin/main'. \
            With --shard i/n, each of n jobs checks its own share of the sessions, and \
            'replay-cli merge-reports' joins their --junit and --summary files. \
            Exit status: 0 every session passed, 1 one diverged, drifted or changed, 2 trouble.
            """)

    static func run(_ parsed: ParsedCommandLine, _ context: CommandContext) throws(CLIError) -> ExitStatus {
        let ignoring = try IgnoredPaths.resolve(parsed, context: context)
        let found = try sessionFiles(parsed.positionals)
        guard !found.isEmpty else { throw CLIError(.input, "no session files (.jsonl) under \(parsed.positionals.map { "'\($0)'" }.joined(separator: ", "))") }
        // A shard may be empty (few sessions, many jobs): it checks nothing and passes, so its reports still merge.
        let shard = parsed.value(of: SessionShard.option)
        let paths = found.filter { shard?.contains(key: $0.key) ?? true }.map(\.path)
        let hostOptions = try HostOptions.resolve(parsed, context: context)
        let identity = try hostOptions.bringUpToDate(context.terminal)
        if let baseline = parsed.value(of: BaselineRevision.option) {
            guard !parsed.isSet(HostDeterminism.flag), parsed.value(of: artifacts) == nil else {
                throw CLIError("--baseline compares two versions of the code; it does not go with --determinism or --artifacts", usage: command.usage)
            }
            return try compareWithBaseline(
                paths, revision: BaselineRevision(baseline), hostOptions: hostOptions, identity: identity, ignoring: ignoring,
                parsed, context)
        }
        let keeper = try parsed.value(of: artifacts).map { directory throws(CLIError) in
            try CheckArtifacts(directory: directory, sessions: paths)
        }
        let determinism = parsed.isSet(HostDeterminism.flag) ? HostDeterminism(host: hostOptions.host, timeout: hostOptions.timeout) : nil
        let jobs = parsed.value(of: jobs) ?? ProcessInfo.processInfo.activeProcessorCount
        let configuredIdentity = try ConfiguredIdentity.resolve(context)
        var checks = check(
            paths, client: hostOptions.client, determinism: determinism,
            ReplayHostClient.Checking(ignoring: ignoring, identity: configuredIdentity.keys), jobs: jobs, context.terminal)
        if let keeper { keepArtifacts(of: &checks, keeper, client: hostOptions.client, jobs: jobs) }
        context.terminal.endProgress()
        for warning in configuredIdentity.warnings(about: checks.compactMap(\.report))
            + IgnoredPaths.warnings(
                about: IgnoredPaths.given(parsed, in: ignoring), in: paths.map { SessionInput(file: $0) },
                source: paths.count == 1 ? paths[0] : "the \(paths.count) sessions checked")
        {
            context.terminal.err(warning)
        }
        return try report(CheckResult(sessions: checks, host: identity), parsed, context)
    }

    /// Writes `result` as text or JSON, and as JUnit XML and a Markdown summary when asked; its exit status.
    private static func report(_ result: CheckResult, _ parsed: ParsedCommandLine, _ context: CommandContext) throws(CLIError) -> ExitStatus {
        let identity = result.host
        if let junit = parsed.value(of: junit) { try JUnitReport.write(result.sessions, host: identity, to: junit) }
        if let summaryPath = parsed.value(of: self.summary) {
            try append(CheckSummary(rows: result.sessions.map(\.summaryRow), counts: result.countsLine).markdown, to: summaryPath)
        }
        context.terminal.present(result, json: parsed.isSet(SharedOptions.json))
        return result.status
    }

    /// Compares each session at `paths` between the baseline `revision` names (for each session, with `recorded`) and
    /// the current code, `jobs` at a time. A revision that names no commit, or whose host does not build, is the
    /// command's trouble when it is the one given, a session's error when it is the session's recorded commit.
    private static func compareWithBaseline(
        _ paths: [String], revision: BaselineRevision, hostOptions: HostOptions, identity: HostIdentity,
        ignoring: [JSONPathPattern], _ parsed: ParsedCommandLine, _ context: CommandContext
    ) throws(CLIError) -> ExitStatus {
        let sessions = paths.map { SessionInput(file: $0) }
        var baselines = BaselineHosts(current: hostOptions.host, terminal: context.terminal)
        var checks: [SessionCheck?] = Array(repeating: nil, count: paths.count)
        var pairs: [(index: Int, baseline: (host: BaselineHost, identity: HostIdentity))] = []
        for (index, session) in sessions.enumerated() {
            do {
                try session.refuseUnreadable()
                pairs.append((index, try baselines.baseline(try revision.revision(for: session))))
            } catch {
                guard revision == .recorded else { throw error }
                checks[index] = SessionCheck(path: paths[index], finding: .failed(error))
            }
        }
        let jobs = parsed.value(of: jobs) ?? ProcessInfo.processInfo.activeProcessorCount
        let done = Locked(0)
        let terminal = context.terminal
        let toCompare = pairs
        let identityKeys = try ConfiguredIdentity.resolve(context).keys
        let compared = madeInParallel(count: toCompare.count, jobs: max(1, jobs / 2)) { position in
            let (index, baseline) = toCompare[position]
            let pair = BaselineComparison.pair(
                baseline: baseline.host, current: hostOptions.host, timeout: hostOptions.timeout, ignoring: ignoring,
                identity: identityKeys)
            let finding: SessionCheck.Finding
            do throws(CLIError) {
                finding = .comparedWithBaseline(
                    BaselineComparison(
                        baseline: baseline.host, baselineHost: baseline.identity,
                        comparison: try pair.compare(sessions[index], stopsDisagree: true)))
            } catch {
                finding = .failed(error)
            }
            let count = done.withLock { count -> Int in
                count += 1
                return count
            }
            terminal.progress("compared \(count) of \(toCompare.count) sessions with the baseline")
            return SessionCheck(path: paths[index], finding: finding)
        }
        for (position, pair) in pairs.enumerated() { checks[pair.index] = compared[position] }
        context.terminal.endProgress()
        var result = CheckResult(sessions: checks.map { $0! }, host: identity)
        result.baselines = baselines.all
        return try report(result, parsed, context)
    }

    /// Checks the sessions at `paths`, `jobs` at a time: with `determinism`, first whether two replays of each
    /// agree; then each that does through one host process. The terminal counts them as they are done.
    private static func check(
        _ paths: [String], client: ReplayHostClient, determinism: HostDeterminism?, _ checking: ReplayHostClient.Checking,
        jobs: Int, _ terminal: Terminal
    ) -> [SessionCheck] {
        let sessions = paths.map { SessionInput(file: $0) }
        var checks: [SessionCheck?] = Array(repeating: nil, count: paths.count)
        var done = 0
        func progress() {
            done += 1
            terminal.progress("checked \(done) of \(paths.count) sessions")
        }
        if let determinism {
            let findings = madeInParallel(count: paths.count, jobs: jobs) { index in
                nondeterminism(of: sessions[index], determinism)
            }
            for (index, finding) in findings.enumerated() where finding != nil {
                checks[index] = finding
                progress()
            }
        }
        let toCheck = checks.indices.filter { checks[$0] == nil }
        let outcomes = client.check(toCheck.map { sessions[$0] }, checking, jobs: jobs, onChecked: progress)
        for (index, outcome) in zip(toCheck, outcomes) {
            switch outcome {
            case .success(let outcome): checks[index] = SessionCheck(path: paths[index], finding: .replayed(outcome))
            case .failure(let error): checks[index] = SessionCheck(path: paths[index], finding: .failed(error))
            }
        }
        return checks.map { $0! }
    }

    /// Keeps the artifacts of every failing check, `jobs` at a time.
    private static func keepArtifacts(of checks: inout [SessionCheck], _ keeper: CheckArtifacts, client: ReplayHostClient, jobs: Int) {
        let failing = checks.indices.filter { checks[$0].status != .ok }
        let paths = failing.map { checks[$0].path }
        let reports = failing.map { checks[$0].report }
        let kept = madeInParallel(count: failing.count, jobs: jobs) { position in
            keeper.keep(paths[position], report: reports[position], client: client)
        }
        for (position, index) in failing.enumerated() { checks[index].artifacts = kept[position] }
    }

    /// The check of a session whose two replays disagree; `nil` when they agree. A failure to replay is the
    /// session's error.
    private static func nondeterminism(of session: SessionInput, _ determinism: HostDeterminism) -> SessionCheck? {
        let path = session.displayName
        do {
            guard let finding = try determinism.check(session) else { return nil }
            return SessionCheck(path: path, finding: .nondeterministic(finding))
        } catch {
            return SessionCheck(path: path, finding: .failed(error))
        }
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

    /// The session files under `arguments`, in a stable order, each with its key for ``SessionShard``: its path
    /// relative to the folder argument it was found under, or the file argument as given.
    private static func sessionFiles(_ arguments: [String]) throws(CLIError) -> [(path: String, key: String)] {
        var files: [(path: String, key: String)] = []
        for argument in arguments {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) else {
                throw CLIError(.input, "no such file or folder '\(argument)'")
            }
            if !isDirectory.boolValue {
                files.append((argument, argument))
                continue
            }
            let found = FileManager.default.enumerator(atPath: argument)?.compactMap { $0 as? String } ?? []
            files += found.filter { $0.hasSuffix(".jsonl") }.sorted().map {
                (URL(fileURLWithPath: argument).appendingPathComponent($0).relativePath, $0)
            }
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
