import CommandLineOptions
import Foundation
import StoreKitCore
import StoreKitReplay

/// `replay-cli sessions`: what replayd stored, newest first.
enum SessionsCommand: Command {
    /// `--dir <folder>`.
    static let directory = Option<String>.string(
        "--dir", valueName: "<folder>",
        defaultDescription: "replayd's, $XDG_STATE_HOME/replayd/sessions or ~/.replayd/sessions",
        help: "where the sessions are")

    static let command = CommandDescription(
        name: "replay-cli sessions",
        abstract: "List the sessions replayd stored, newest first, with app, store, length and status.",
        options: [directory.declaration, SharedOptions.json.declaration])

    static func run(_ parsed: ParsedCommandLine, _ context: CommandContext) throws(CLIError) -> Int32 {
        let directory = parsed.value(of: directory) ?? defaultDirectory(context.environment)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
            throw CLIError(.input, "cannot list '\(directory)' (does it exist? replayd creates it when it starts)")
        }
        var rows: [(modified: Date, json: JSONValue, text: [String])] = []
        var damaged: [String] = []
        for name in names where name.hasSuffix(".jsonl") {
            let path = "\(directory)/\(name)"
            let modified = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? .distantPast
            var header: SessionHeader?
            var actions = 0
            var status = "cut off"
            do {
                let reader = try SessionReader(path: path)
                while let event = try reader.next() {
                    switch event {
                    case .header(let found): header = found
                    case .action: actions += 1
                    case .end(let end): status = end.reason.rawValue
                    case .gap: break
                    }
                }
            } catch {
                status = "damaged (line \(error.line))"
                damaged.append(error.description)
            }
            let app = header.map { "\($0.app.name) \($0.app.version)" } ?? "?"
            let store = header?.storeID ?? "?"
            let time = ISO8601DateFormatter().string(from: modified)
            rows.append((modified,
                .object(["file": .string(path), "modified": .string(time), "app": .string(app), "storeId": .string(store), "actions": .integer(Int64(actions)), "status": .string(status)]),
                [time, app, store, String(actions), status, name]))
        }
        rows.sort { $0.modified > $1.modified }
        // A damaged session is listed with the others, and named with the reader's reason: exit 2, as every command.
        for reason in damaged.sorted() { context.terminal.err("Error: \(reason)") }
        let exitStatus: Int32 = damaged.isEmpty ? 0 : 2
        if parsed.isSet(SharedOptions.json) {
            context.terminal.out(JSONValue.array(rows.map(\.json)).prettyString())
            return exitStatus
        }
        let table = [["modified", "app", "store", "actions", "status", "file"]] + rows.map(\.text)
        let widths = (0..<6).map { column in table.map { $0[column].count }.max() ?? 0 }
        for row in table {
            context.terminal.out(zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  "))
        }
        if rows.isEmpty { context.terminal.err("no sessions in \(directory)") }
        return exitStatus
    }

    static func defaultDirectory(_ environment: [String: String]) -> String {
        if let state = environment["XDG_STATE_HOME"], !state.isEmpty { return "\(state)/replayd/sessions" }
        return "\(environment["HOME"] ?? NSHomeDirectory())/.replayd/sessions"
    }
}
