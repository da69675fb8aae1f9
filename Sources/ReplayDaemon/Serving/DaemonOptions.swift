import Foundation
import StoreKitCore
import StoreKitReplay

/// replayd's command line, with the defaults the environment gives.
struct DaemonOptions: Sendable {
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

    /// Two threads per core, and at least 8, up to 64. More threads than cores, because a write to a session file
    /// can wait on the disk: the waiting thread's clients are held up, and with one thread per core its core
    /// would idle meanwhile.
    static var defaultWorkerCount: Int {
        min(max(2 * ProcessInfo.processInfo.activeProcessorCount, 8), 64)
    }

    static let usage = """
        OVERVIEW: replayd collects the sessions that apps record, one NDJSON file per session.

        USAGE: replayd [--socket <path>] [--dir <path>] [--max-line-bytes <n>] [--threads <n>] [--log-level <level>]

        OPTIONS:
          --socket <path>         the Unix socket to listen on (default: $REPLAYD_SOCKET, else
                                  $XDG_RUNTIME_DIR/replayd/replayd.sock, else ~/.replayd/replayd.sock)
          --dir <path>            where session files are stored (default: $XDG_STATE_HOME/replayd/sessions,
                                  else ~/.replayd/sessions)
          --max-line-bytes <n>    the longest line accepted; longer lines are rejected (default: 16777216)
          --threads <n>           how many threads read, check and store the clients' lines, from 1 to 64;
                                  each client is served by one of them (default: two per core,
                                  at least 8)
          --log-level <level>     debug, info, warn or error (default: info)
          -h, --help              show this help

        Logs are JSON lines on stderr. SIGTERM or SIGINT stops the daemon cleanly.
        """

    /// A command line that could not be parsed.
    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    /// Parses `arguments` (without the program name); `nil` when help was asked for.
    static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError) -> DaemonOptions? {
        var options = DaemonOptions(
            socketPath: ReplaydSocketPath.resolve(environment: environment),
            sessionDirectory: defaultSessionDirectory(environment))
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            var name = argument
            var inline: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            func value() throws(UsageError) -> String {
                guard let value = inline ?? remaining.popFirst(), !value.isEmpty else {
                    throw UsageError(description: "option '\(name)' needs a value")
                }
                return value
            }
            switch name {
            case "-h", "--help":
                return nil
            case "--socket":
                options.socketPath = try value()
            case "--dir":
                options.sessionDirectory = try value()
            case "--max-line-bytes":
                let text = try value()
                guard let bytes = Int(text), (1024...(1 << 30)).contains(bytes) else {
                    throw UsageError(
                        description: "option '--max-line-bytes' needs a whole number from 1024 to 1073741824, not '\(text)'")
                }
                options.maxLineBytes = bytes
            case "--threads":
                let text = try value()
                guard let count = Int(text), (1...64).contains(count) else {
                    throw UsageError(description: "option '--threads' needs a whole number from 1 to 64, not '\(text)'")
                }
                options.workerCount = count
            case "--log-level":
                let text = try value()
                guard let level = DaemonLog.Level(name: text) else {
                    throw UsageError(description: "option '--log-level' needs debug, info, warn or error, not '\(text)'")
                }
                options.logLevel = level
            default:
                throw UsageError(description: "unknown option '\(argument)'")
            }
        }
        return options
    }

    /// `$XDG_STATE_HOME/replayd/sessions`, else `~/.replayd/sessions`.
    static func defaultSessionDirectory(_ environment: [String: String]) -> String {
        if let state = environment["XDG_STATE_HOME"], !state.isEmpty { return state + "/replayd/sessions" }
        return ReplaydSocketPath.homeDirectory(environment) + "/.replayd/sessions"
    }
}
