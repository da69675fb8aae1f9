import CommandLineOptions
import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// `replay-cli sessions`: what replayd stored, newest first, found through the folder's index.
enum SessionsCommand: Command {
    /// Which sessions `--status` keeps.
    enum StatusFilter: String, CaseIterable, Sendable {
        case finished, appExited, disconnected, timedOut, open, gaps, damaged

        func admits(_ entry: SessionIndex.Entry) -> Bool {
            switch self {
            case .gaps: entry.lostInGaps > 0
            case .damaged: !entry.damage.isEmpty
            default: entry.status == rawValue
            }
        }
    }

    /// `--dir <folder>`.
    static let directory = Option<String>.string(
        "--dir", valueName: "<folder>",
        defaultDescription: "replayd's, $XDG_STATE_HOME/replayd/sessions or ~/.replayd/sessions",
        help: "where the sessions are")
    /// `--app <name>`.
    static let app = Option<String>.string("--app", valueName: "<name>", help: "only sessions recorded by this app")
    /// `--store <id>`.
    static let store = Option<String>.string("--store", valueName: "<id>", help: "only sessions of this store")
    /// `--since <duration>`.
    static let since = Option<Duration>.duration(
        "--since", help: "only sessions written to in the last <duration> (90s, 30m, 12h, 7d)")
    /// `--status <status>`.
    static let status = Option<StatusFilter>.choice(
        "--status", valueName: "<status>",
        help: "only sessions that ended so (finished, appExited, disconnected, timedOut), are still\nopen, lost actions in gaps, or are damaged")
    /// `--action <name>`.
    static let action = Option<String>.string(
        "--action", valueName: "<name>",
        help: "only sessions with this action, by name or by the start of its case path\n(path.element matches path.element.rehearsal.timerTick)")

    static let command = CommandDescription(
        name: "replay-cli sessions",
        abstract: "List the sessions replayd stored, newest first, with app, store, length, actions lost and status.",
        arguments: [
            ArgumentDeclaration(
                "<input>",
                help: "session folders, and index files: a folder's .index.json, or index lines\n(one JSON object per line, as replayd --on-finish hands them over)",
                isOptional: true, isRepeating: true)
        ],
        options: [
            directory.declaration, app.declaration, store.declaration, since.declaration, status.declaration,
            action.declaration, SharedOptions.json.declaration,
        ],
        discussion: """
            The folder's index (.index.json, kept by replayd and by this command) summarizes every session, so the \
            filters read one file and look at each session's size and time; a session that changed since it was \
            summarized is read again. An index file is taken as it is, its sessions' files named relative to its \
            folder. --dir is one more input; without any, replayd's folder is listed. With several inputs, the file \
            column shows each session's path.
            """)

    static func run(_ parsed: ParsedCommandLine, _ context: CommandContext) throws(CLIError) -> ExitStatus {
        var inputs = parsed.positionals + [parsed.value(of: directory)].compactMap { $0 }
        if inputs.isEmpty { inputs = [defaultDirectory(context.environment)] }
        var found: [SessionListing.Found] = []
        for input in inputs { found += try SessionIndexInput.entries(of: input, context.terminal) }
        let now = Date()
        let listed = found.filter { found in
            let entry = found.entry
            if let app = parsed.value(of: app), entry.appName != app { return false }
            if let store = parsed.value(of: store), entry.storeID != store { return false }
            if let since = parsed.value(of: since),
                Double(entry.modifiedMilliseconds) / 1000 < now.timeIntervalSince1970 - Double(since.components.seconds)
            {
                return false
            }
            if let status = parsed.value(of: status), !status.admits(entry) { return false }
            if let action = parsed.value(of: action),
                !entry.actionNames.keys.contains(where: { $0 == action || $0.hasPrefix(action + ".") })
            {
                return false
            }
            return true
        }.sorted { ($0.entry.modifiedMilliseconds, $1.path) > ($1.entry.modifiedMilliseconds, $0.path) }
        // A damaged session is listed with the others, and named with the reader's reason: exit 2, as every command.
        let damaged = listed.map(\.entry.damage).filter { !$0.isEmpty }
        for reason in damaged.sorted() { context.terminal.err("Error: \(reason)") }
        let listing = SessionListing(inputs: inputs, found: listed)
        context.terminal.present(listing, json: parsed.isSet(SharedOptions.json))
        return damaged.isEmpty ? .ok : .trouble
    }

    /// The folder replayd stores sessions in by default: `$XDG_STATE_HOME/replayd/sessions`, else `~/.replayd/sessions`.
    static func defaultDirectory(_ environment: [String: String]) -> String {
        if let state = environment["XDG_STATE_HOME"], !state.isEmpty { return "\(state)/replayd/sessions" }
        return "\(environment["HOME"] ?? NSHomeDirectory())/.replayd/sessions"
    }
}
