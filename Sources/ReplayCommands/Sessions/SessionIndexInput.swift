import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// An input of `sessions`: a session folder, whose index is brought up to date, or an index file taken as it is,
/// either a folder's `.index.json` or index lines (one ``SessionIndex/Entry/jsonValue`` object per line, as
/// `replayd --on-finish` hands them over). An index file's sessions are named relative to its folder.
enum SessionIndexInput {
    /// The entries of `input`, each with the folder its file is in; a folder's files are counted on a progress line.
    /// - Throws: ``CLIError`` when the input is missing or unreadable, or a line of an index file is not an entry.
    static func entries(of input: String, _ terminal: Terminal) throws(CLIError) -> [SessionListing.Found] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory) else {
            throw CLIError(.input, "cannot list '\(input)' (does it exist? replayd creates it when it starts)")
        }
        if isDirectory.boolValue {
            do {
                let meter = ProgressMeter(terminal, "sessions: looked at", unit: "files in \(input)", total: nil)
                defer { meter.finish() }
                return try SessionIndex.refreshed(in: input) { meter.advance(to: $0, of: $1) }.index.entries
                    .map { .init(directory: input, entry: $0) }
            } catch {
                throw CLIError(.input, "cannot list '\(input)': \(error.localizedDescription)")
            }
        }
        guard let data = FileManager.default.contents(atPath: input) else {
            throw CLIError(.input, "cannot read the index file '\(input)'")
        }
        let folder = (input as NSString).deletingLastPathComponent
        return try entries(inIndexFile: Array(data), name: input).map { .init(directory: folder.isEmpty ? "." : folder, entry: $0) }
    }

    /// The entries of an index file's bytes: a whole `.index.json` document, else one entry per non-empty line.
    private static func entries(inIndexFile bytes: [UInt8], name: String) throws(CLIError) -> [SessionIndex.Entry] {
        if let document = try? JSONValue(parsing: bytes), case .array(let items)? = document["entries"] {
            var entries: [SessionIndex.Entry] = []
            for (position, item) in items.enumerated() {
                guard let entry = SessionIndex.Entry(jsonValue: item) else {
                    throw CLIError(.input, "entry \(position + 1) of the index is not an index entry (it needs file, bytes and modified)", file: name)
                }
                entries.append(entry)
            }
            return entries
        }
        var entries: [SessionIndex.Entry] = []
        for (number, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() where !line.isEmpty {
            let value: JSONValue
            do {
                value = try JSONValue(parsing: Array(line))
            } catch {
                throw CLIError(.input, "not an index line: \(error)", file: name, line: number + 1)
            }
            guard let entry = SessionIndex.Entry(jsonValue: value) else {
                throw CLIError(.input, "not an index line (it needs file, bytes and modified)", file: name, line: number + 1)
            }
            entries.append(entry)
        }
        return entries
    }
}
