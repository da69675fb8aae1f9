import CommandLineOptions
import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// `replay-cli stats`: counts (actions by name and origin, each effect's calls, ends and actions), duration, gaps and
/// sizes.
enum StatsCommand: Command {
    static let command = CommandDescription(
        name: "replay-cli stats",
        abstract: "Summarize a session: actions by name and origin, each effect's calls, duration, gaps and sizes.",
        arguments: [ArgumentDeclaration("<session>", help: "a recorded session (.jsonl), or '-' for standard input")], options: [SharedOptions.json.declaration])

    static func run(_ parsed: ParsedCommandLine, _ context: CommandContext) throws(CLIError) -> ExitStatus {
        let session = try SessionInput(parsed.positionals[0])
        defer { session.cleanUp() }
        var stats = SessionStats(session: session.displayName)
        try SessionScan.read(session) { event throws(CLIError) in
            stats.count(event)
            return true
        }
        stats.bytes = (try? FileManager.default.attributesOfItem(atPath: session.path)[.size] as? Int) ?? 0
        context.terminal.present(stats, json: parsed.isSet(SharedOptions.json))
        return .ok
    }
}
