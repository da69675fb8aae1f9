import StoreKitJSON

/// What `export` wrote: the file, its format and how many entries it holds.
struct ExportedSession {
    /// The file written, as the user named it.
    var file: String
    /// How the session is named.
    var source: String
    /// The format written.
    var format: ExportCommand.Format
    /// The timeline's entries, the initial one and each gap's included.
    var entries: Int
    /// The entries standing for gaps.
    var gaps: Int
    /// The file's size.
    var bytes: Int

    /// The recorded actions among the entries.
    var actions: Int { entries - 1 - gaps }
}

extension ExportedSession: CommandOutput {
    var jsonValue: JSONValue {
        .object([
            "file": .string(file), "session": .string(source), "format": .string(format.rawValue),
            "entries": .integer(Int64(entries)), "actions": .integer(Int64(actions)), "gaps": .integer(Int64(gaps)),
            "bytes": .integer(Int64(bytes)),
        ])
    }

    func writeText(to terminal: Terminal) {
        let gapsText = gaps == 0 ? "" : ", \(gaps) gap\(gaps == 1 ? "" : "s") as @@GAP"
        terminal.out(
            "wrote \(file): \(source) as Redux DevTools' lifted state, @@INIT and \(actions) action\(actions == 1 ? "" : "s")"
                + "\(gapsText), \(bytes) bytes")
    }
}
