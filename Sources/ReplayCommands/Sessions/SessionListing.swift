import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// What `sessions` lists: the index entries that passed the filters, newest first.
struct SessionListing {
    /// An index entry and the folder its session file is named relative to.
    struct Found {
        /// The folder.
        var directory: String
        /// The entry.
        var entry: SessionIndex.Entry

        /// The session file's path.
        var path: String { "\(directory)/\(entry.file)" }
    }

    /// One listed session, as both forms show it.
    struct Row {
        /// When it was last written to, ISO 8601.
        var modified: String
        /// The app's name and version, `?` when unknown.
        var app: String
        /// The store, `?` when unknown.
        var store: String
        /// Its actions.
        var actions: Int
        /// How it ended, `cut off` for one still open.
        var status: String
        /// The file's name in its folder, as the table shows it for one input.
        var file: String
        /// The file's path.
        var path: String
        /// The actions lost in gaps.
        var lostInGaps: Int
    }

    /// The folders and index files listed.
    var inputs: [String]
    /// The sessions, newest first.
    var rows: [Row]

    /// The listing of what was `found` in `inputs`.
    init(inputs: [String], found: [Found]) {
        let formatter = ISO8601DateFormatter()
        self.inputs = inputs
        rows = found.map { found in
            let entry = found.entry
            return Row(
                modified: formatter.string(from: Date(timeIntervalSince1970: Double(entry.modifiedMilliseconds) / 1000)),
                app: entry.appName.isEmpty ? "?" : "\(entry.appName) \(entry.appVersion)",
                store: entry.storeID.isEmpty ? "?" : entry.storeID, actions: entry.actions,
                status: entry.status == "open" ? "cut off" : entry.status, file: entry.file, path: found.path,
                lostInGaps: entry.lostInGaps)
        }
    }
}

extension SessionListing: CommandOutput {
    var jsonValue: JSONValue {
        .array(
            rows.map { row in
                .object([
                    "file": .string(row.path), "modified": .string(row.modified), "app": .string(row.app),
                    "storeId": .string(row.store), "actions": .integer(Int64(row.actions)), "status": .string(row.status),
                    "lostInGaps": .integer(Int64(row.lostInGaps)),
                ])
            })
    }

    /// A table with a header row, its columns as wide as their widest cell; on stderr, a note when it is empty.
    /// The lost column counts the actions the session's gaps cover, so a session that lost some never reads as
    /// whole; the file column shows the file's name for one input, its path for several.
    func writeText(to terminal: Terminal) {
        let cells = rows.map { row in
            [
                row.modified, row.app, row.store, String(row.actions), String(row.lostInGaps), row.status,
                inputs.count == 1 ? row.file : row.path,
            ].map { $0.escapingControls() }
        }
        let table = [["modified", "app", "store", "actions", "lost", "status", "file"]] + cells
        let widths = (0..<7).map { column in table.map { $0[column].count }.max() ?? 0 }
        for row in table {
            // Every column but the last padded to its width, so no line ends in spaces.
            let padded = zip(row.dropLast(), widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
            terminal.out((padded + [row[row.count - 1]]).joined(separator: "  "))
        }
        if rows.isEmpty { terminal.err("no sessions in \(inputs.joined(separator: ", ")) match") }
    }
}
