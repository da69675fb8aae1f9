import CommandLineOptions
import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// `replay-cli stats`: counts, duration, gaps and sizes.
enum StatsCommand: Command {
    static let command = CommandDescription(
        name: "replay-cli stats",
        abstract: "Summarize a session: actions by name and origin, duration, gaps and sizes.",
        arguments: [ArgumentDeclaration("<session>", help: "a recorded session (.jsonl), or '-' for standard input")], options: [SharedOptions.json.declaration])

    static func run(_ parsed: ParsedCommandLine, _ context: CommandContext) throws(CLIError) -> ExitStatus {
        let session = try SessionInput(parsed.positionals[0])
        defer { session.cleanUp() }
        var header: SessionHeader?
        var actions = 0
        var fromEffects = 0
        var patches = 0
        var names: [String: Int] = [:]
        var duration = 0.0
        var gaps = 0
        var dropped = 0
        var end: EndEvent?
        try SessionScan.read(session) { event throws(CLIError) in
            switch event {
            case .header(let found): header = found
            case .action(let action):
                actions += 1
                names[action.name, default: 0] += 1
                if case .effect = action.origin { fromEffects += 1 }
                if action.patch != nil { patches += 1 }
                duration = max(duration, action.time)
            case .gap(let gap):
                gaps += 1
                dropped += gap.count
            case .end(let found):
                end = found
                duration = max(duration, found.time)
            }
            return true
        }
        let bytes = (try? FileManager.default.attributesOfItem(atPath: session.path)[.size] as? Int) ?? 0
        let status = end?.reason.rawValue ?? "cut off (no end line)"
        if parsed.isSet(SharedOptions.json) {
            context.terminal.out(JSONValue.object([
                "session": .string(session.displayName), "storeId": .string(header?.storeID ?? ""),
                "actions": .integer(Int64(actions)), "fromEffects": .integer(Int64(fromEffects)),
                "byName": .object(names.mapValues { .integer(Int64($0)) }), "durationSeconds": .double(duration),
                "gaps": .integer(Int64(gaps)), "dropped": .integer(Int64(dropped)), "bytes": .integer(Int64(bytes)),
                "patchLines": .integer(Int64(patches)), "status": .string(status),
            ]).prettyString())
            return .ok
        }
        let app = header?.app
        let recordedBy = "\(app?.name ?? "") \(app?.version ?? "") build \(app?.build ?? "") on \(header?.startedAt ?? "")"
        let rows: [(String, String)] = [
            ("session", "\(session.displayName) (\((header?.sessionID ?? "").escapingControls()))"),
            ("store", (header?.storeID ?? "").escapingControls()),
            ("recorded by", recordedBy.escapingControls()),
            ("actions", "\(actions) (\(actions - fromEffects) from the app, \(fromEffects) from effects)"),
            ("duration", String(format: "%.3f s", duration)),
            ("gaps", "\(gaps) (\(dropped) actions lost)"),
            ("size", "\(bytes) bytes, \(actions > 0 ? bytes / actions : 0) per action, \(patches) stored as patches"),
            ("status", status),
        ]
        for (label, value) in rows { context.terminal.out(label.padding(toLength: 13, withPad: " ", startingAt: 0) + value) }
        context.terminal.out("by action:")
        for (name, count) in names.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) {
            context.terminal.out("  " + String(count).leftPadded(6) + "  " + name.escapingControls())
        }
        return .ok
    }
}
