import CommandLineOptions
import Foundation
import StoreKitCore
import StoreKitReplay

/// replayd's command line, with the defaults the environment gives.
package struct DaemonOptions: Sendable {
    /// The socket to listen on.
    var socketPath: String
    /// Where session files go.
    var sessionDirectory: String
    /// The longest line accepted, in bytes.
    var maxLineBytes = SessionFormat.defaultMaxLineBytes
    /// The least severe log level written.
    var logLevel = DaemonLog.Level.info
    /// How many threads read, check and store clients' lines: ``defaultWorkerCount`` unless set.
    var workerCount = DaemonOptions.defaultWorkerCount
    /// How long finished sessions are kept and how much room they may take (`--max-age`, `--max-bytes`).
    var retention = SessionRetention()
    /// How many connections one process may have open at once.
    var maxConnectionsPerPeer = DaemonOptions.defaultMaxConnectionsPerPeer
    /// How long a new connection may take to send its session header before it is closed.
    var headerTimeout = DaemonOptions.defaultHeaderTimeout
    /// The command run for each finished session (`--on-finish` and its settings); `nil` for none.
    var onFinish: FinishHook.Settings?

    /// Enough for an app with many stores, each recording on its own connection.
    static let defaultMaxConnectionsPerPeer = 64
    /// Ample for an app on a loaded machine, whose header is its first write.
    static let defaultHeaderTimeout = Duration.seconds(10)

    /// Two threads per core, and at least 8, up to 64. More threads than cores, because a write to a session file
    /// can wait on the disk: the waiting thread's clients are held up, and with one thread per core its core
    /// would idle meanwhile.
    static var defaultWorkerCount: Int {
        min(max(2 * ProcessInfo.processInfo.activeProcessorCount, 8), 64)
    }

    /// `--socket <path>`.
    static let socket = Option<String>.string(
        "--socket", valueName: "<path>",
        defaultDescription: "$REPLAYD_SOCKET, else\n$XDG_RUNTIME_DIR/replayd/replayd.sock, else ~/.replayd/replayd.sock",
        help: "the Unix socket to listen on")
    /// `--dir <path>`.
    static let directory = Option<String>.string(
        "--dir", valueName: "<path>", defaultDescription: "$XDG_STATE_HOME/replayd/sessions,\nelse ~/.replayd/sessions",
        help: "where session files are stored")
    /// `--max-line-bytes <size>`.
    ///
    /// At most the session format's limit (``SessionFormat/defaultMaxLineBytes``), the longest line every reader
    /// reads: a line the daemon stores is never one `replay-cli` refuses.
    static let maxLineBytes = Option<Int>.byteCount(
        "--max-line-bytes", in: 1024...SessionFormat.defaultMaxLineBytes, default: SessionFormat.defaultMaxLineBytes,
        help: "the longest line accepted (512K, 4M), at most the session format's limit;\nlonger lines are rejected")
    /// `--threads <n>`.
    static let threads = Option<Int>.integer(
        "--threads", in: 1...64, defaultDescription: "two per core,\nat least 8",
        help: "how many threads read, check and store the clients' lines, from 1 to 64;\neach client is served by one of them")
    /// `--max-age <duration>`.
    static let maxAge = Option<Duration>.duration(
        "--max-age", help: "remove finished sessions last written longer ago than this (90s, 30m, 12h, 7d);\nopen sessions are never removed")
    /// `--max-bytes <size>`.
    static let maxBytes = Option<UInt64>.byteCount(
        "--max-bytes", help: "while finished sessions take more than this (500K, 200MB, 2G),\nremove the oldest")
    /// `--max-connections-per-peer <n>`.
    static let maxConnectionsPerPeer = Option<Int>.integer(
        "--max-connections-per-peer", in: 1...1_000_000, default: defaultMaxConnectionsPerPeer,
        help: "how many connections one process may have open at once;\nmore are refused")
    /// `--header-timeout <duration>`.
    static let headerTimeout = Option<Duration>.duration(
        "--header-timeout", default: defaultHeaderTimeout, defaultDescription: "10s",
        help: "close a connection that has not sent its session header this long\nafter connecting")
    /// `--on-finish <command>`.
    static let onFinish = Option<String>.string(
        "--on-finish", valueName: "<command>",
        help: "run this shell command line once for each finished session, off the ingest path,\nwith the session file's path appended as its last argument and its index line\non standard input; failures are retried and every run is logged (hook.attempt)")
    /// `--on-finish-retries <n>`.
    static let onFinishRetries = Option<Int>.integer(
        "--on-finish-retries", in: 0...10, default: FinishHook.Settings.defaultRetries,
        help: "how many times a failed --on-finish run is retried, from 0 to 10")
    /// `--on-finish-backoff <duration>`.
    static let onFinishBackoff = Option<Duration>.duration(
        "--on-finish-backoff", default: FinishHook.Settings.defaultBackoff, defaultDescription: "1s",
        help: "the wait before the first retry of --on-finish, doubled before each next one")
    /// `--on-finish-timeout <duration>`.
    static let onFinishTimeout = Option<Duration>.duration(
        "--on-finish-timeout", default: FinishHook.Settings.defaultTimeout, defaultDescription: "10m",
        help: "terminate an --on-finish run that takes longer, and count it as failed")
    /// `--log-level <level>`.
    static let logLevel = Option<DaemonLog.Level>(
        "--log-level", valueName: "<level>", default: .info, defaultDescription: "info",
        expectation: "debug, info, warn or error", help: "debug, info, warn or error", convert: DaemonLog.Level.init(name:))

    /// The command line as `--help` shows it.
    package static let command = CommandDescription(
        name: "replayd", abstract: "replayd collects the sessions that apps record, one NDJSON file per session.",
        options: [
            socket.declaration, directory.declaration, maxLineBytes.declaration, threads.declaration,
            maxAge.declaration, maxBytes.declaration, maxConnectionsPerPeer.declaration, headerTimeout.declaration,
            onFinish.declaration, onFinishRetries.declaration, onFinishBackoff.declaration, onFinishTimeout.declaration,
            logLevel.declaration,
        ],
        discussion: "Logs are JSON lines on stderr, removals included (session.removed). SIGTERM or SIGINT stops the "
            + "daemon cleanly. A session is finished when its app ended it; --on-finish remembers each success in "
            + "<dir>/.on-finish, and at start hands every finished session without one to the command again.")

    /// Parses `arguments` (without the program name); `nil` when help was asked for.
    /// - Throws: ``UsageError`` naming the offending option.
    package static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError) -> DaemonOptions? {
        let parsed = try ParsedCommandLine(arguments, for: command)
        if parsed.wantsHelp { return nil }
        if let extra = parsed.positionals.first {
            throw UsageError("unexpected argument '\(extra)'", usage: command.usage)
        }
        var options = DaemonOptions(
            socketPath: parsed.value(of: socket) ?? ReplaydSocketPath.resolve(environment: environment),
            sessionDirectory: parsed.value(of: directory) ?? defaultSessionDirectory(environment))
        options.maxLineBytes = parsed.value(of: maxLineBytes, default: options.maxLineBytes)
        options.workerCount = parsed.value(of: threads, default: options.workerCount)
        options.logLevel = parsed.value(of: logLevel, default: options.logLevel)
        options.maxConnectionsPerPeer = parsed.value(of: maxConnectionsPerPeer, default: options.maxConnectionsPerPeer)
        options.headerTimeout = parsed.value(of: headerTimeout, default: options.headerTimeout)
        if let command = parsed.value(of: onFinish) {
            options.onFinish = FinishHook.Settings(
                command: command, retries: parsed.value(of: onFinishRetries, default: FinishHook.Settings.defaultRetries),
                backoff: parsed.value(of: onFinishBackoff, default: FinishHook.Settings.defaultBackoff),
                timeout: parsed.value(of: onFinishTimeout, default: FinishHook.Settings.defaultTimeout))
        } else if let setting = [
            (onFinishRetries.declaration.name, parsed.isGiven(onFinishRetries)),
            (onFinishBackoff.declaration.name, parsed.isGiven(onFinishBackoff)),
            (onFinishTimeout.declaration.name, parsed.isGiven(onFinishTimeout)),
        ].first(where: \.1)?.0 {
            throw UsageError("'\(setting)' goes with '--on-finish'", usage: command.usage)
        }
        options.retention = SessionRetention(maxAge: parsed.value(of: maxAge), maxBytes: parsed.value(of: maxBytes))
        return options
    }

    /// `$XDG_STATE_HOME/replayd/sessions`, else `~/.replayd/sessions`.
    static func defaultSessionDirectory(_ environment: [String: String]) -> String {
        if let state = environment["XDG_STATE_HOME"], !state.isEmpty { return state + "/replayd/sessions" }
        return ReplaydSocketPath.homeDirectory(environment) + "/.replayd/sessions"
    }
}
