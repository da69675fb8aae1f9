import Foundation
import StoreKitCore
import StoreKitReplay

/// The `replayd` command: parses the command line, starts the daemon and maps the outcome to an exit status
/// (0 after a clean stop, 2 when it cannot start or the command line is wrong).
public enum Replayd {
    public static func main(_ arguments: [String], environment: [String: String]) -> Int32 {
        let options: DaemonOptions
        do {
            guard let parsed = try DaemonOptions.parse(arguments, environment: environment) else {
                print(DaemonOptions.command.help)
                return 0
            }
            options = parsed
        } catch {
            printError(error.description)
            return 2
        }
        let log = DaemonLog(minimum: options.logLevel)
        do {
            let daemon = try Daemon(options: options, log: log)
            daemon.run()
            return 0
        } catch {
            log.write(.error, "daemon.failed", ["error": .string(error.description)])
            // The JSON line is for log collectors; a person at a terminal also gets it in plain words.
            if isatty(2) == 1 { printError("replayd: \(error)") }
            return 2
        }
    }

    private static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
