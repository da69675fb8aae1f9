import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitSystem

/// A summary of every session file in a folder, kept beside them in `.index.json`, so that finding sessions among
/// thousands reads one small file and looks at each session's size and time instead of reading every session.
///
/// An entry is trusted only while its file has the size and modification time it had when it was summarized; a
/// file that changed, or that the index lacks, is read again, and entries of files that are gone are dropped.
/// So the index is never a source of truth, only a cache: missing, stale or damaged, it is rebuilt.
///
/// ```swift
/// let entries = try SessionIndex.refreshed(in: "/home/me/.replayd/sessions").entries
/// let recent = entries.filter { $0.storeID == "todos" && $0.status == "finished" }
/// ```
public struct SessionIndex: Sendable, Equatable {
    /// One session file's summary.
    public struct Entry: Sendable, Equatable {
        /// The file's name in the folder.
        public var file: String
        /// Its size when summarized.
        public var bytes: UInt64
        /// Its modification time when summarized, in milliseconds since 1970.
        public var modifiedMilliseconds: Int64
        /// The header's session id, store id, app name and version, and start time; empty when unreadable.
        public var sessionID: String
        /// The store that replays it.
        public var storeID: String
        /// The app that recorded it.
        public var appName: String
        /// The app's version.
        public var appVersion: String
        /// When recording started (ISO 8601), as the header says.
        public var startedAt: String
        /// How many actions it holds: its action lines, and the actions its gaps keep without their states.
        public var actions: Int
        /// How many actions its gaps say were lost (not those a gap keeps).
        public var lostInGaps: Int
        /// `finished`, `appExited` or `disconnected` from its `end` line; `open` without one; `damaged (line N)`
        /// when the strict reader refuses a line; `damaged` when it refuses the file as a whole (empty, not a
        /// regular file, unreadable).
        public var status: String
        /// How many times each action name occurs.
        public var actionNames: [String: Int]
        /// Why the strict reader refused the file (its `file:line: reason`); empty when it reads to the end.
        public var damage: String

        /// Creates an entry.
        public init(
            file: String, bytes: UInt64, modifiedMilliseconds: Int64, sessionID: String = "", storeID: String = "",
            appName: String = "", appVersion: String = "", startedAt: String = "", actions: Int = 0,
            lostInGaps: Int = 0, status: String = "open", actionNames: [String: Int] = [:], damage: String = ""
        ) {
            self.file = file
            self.bytes = bytes
            self.modifiedMilliseconds = modifiedMilliseconds
            self.sessionID = sessionID
            self.storeID = storeID
            self.appName = appName
            self.appVersion = appVersion
            self.startedAt = startedAt
            self.actions = actions
            self.lostInGaps = lostInGaps
            self.status = status
            self.actionNames = actionNames
            self.damage = damage
        }

        /// The entry as a JSON object, as the index file holds it and as `replayd --on-finish` hands it over (one
        /// line, canonically encoded): `file`, `bytes`, `modified` (milliseconds since 1970), `sessionId`,
        /// `storeId`, `appName`, `appVersion`, `startedAt`, `actions`, `lostInGaps`, `status`, `actionNames` and
        /// `damage`.
        public var jsonValue: JSONValue {
            .object([
                "file": .string(file), "bytes": .integer(Int64(bytes)), "modified": .integer(modifiedMilliseconds),
                "sessionId": .string(sessionID), "storeId": .string(storeID), "appName": .string(appName),
                "appVersion": .string(appVersion), "startedAt": .string(startedAt), "actions": .integer(Int64(actions)),
                "lostInGaps": .integer(Int64(lostInGaps)), "status": .string(status),
                "actionNames": .object(actionNames.mapValues { .integer(Int64($0)) }), "damage": .string(damage),
            ])
        }

        /// Reads an entry from its ``jsonValue`` form; `nil` when `file`, `bytes` or `modified` is missing or not
        /// what it should be. Other missing fields read as empty.
        public init?(jsonValue item: JSONValue) {
            guard let file = item["file"]?.stringValue, let bytes = item["bytes"]?.integerValue,
                let modified = item["modified"]?.integerValue
            else { return nil }
            var names: [String: Int] = [:]
            for (name, count) in item["actionNames"]?.objectValue ?? [:] { names[name] = Int(count.integerValue ?? 0) }
            self.init(
                file: file, bytes: UInt64(max(0, bytes)), modifiedMilliseconds: modified,
                sessionID: item["sessionId"]?.stringValue ?? "", storeID: item["storeId"]?.stringValue ?? "",
                appName: item["appName"]?.stringValue ?? "", appVersion: item["appVersion"]?.stringValue ?? "",
                startedAt: item["startedAt"]?.stringValue ?? "", actions: Int(item["actions"]?.integerValue ?? 0),
                lostInGaps: Int(item["lostInGaps"]?.integerValue ?? 0), status: item["status"]?.stringValue ?? "",
                actionNames: names, damage: item["damage"]?.stringValue ?? "")
        }
    }

    /// The index file's name in the sessions folder.
    public static let fileName = ".index.json"
    /// The version of the index file's format; another version is rebuilt. Version 2 counts the actions a gap keeps
    /// as the session's, not as lost.
    public static let formatVersion = 2

    /// The entries, by file name.
    public var entries: [Entry]

    /// Creates an index of `entries`.
    public init(entries: [Entry] = []) {
        self.entries = entries
    }

    /// The index of `directory`, brought up to date: entries whose file changed or is new are summarized again (as
    /// far as the file's size when it is looked at, however much it grows while it is read), entries of removed
    /// files dropped, and the index file rewritten when anything changed (when it can be:
    /// a folder that cannot be written to still gets a correct answer).
    /// - Parameters:
    ///   - onProgress: Called before each session file is looked at, with how many were looked at and how many
    ///     there are, and once more when all were.
    ///   - isCancelled: Asked before each session file is looked at, and every few thousand lines of one being
    ///     read; when it returns true, the refresh stops there and the index file is left as it was.
    ///   - filesBeingWritten: The names of session files still being recorded. One the index holds keeps its entry
    ///     as it was, however much it grew since, so that a long recording is not read again at every refresh (the
    ///     next refresh without it in this set reads it); one the index does not hold yet is read.
    /// - Returns: The index, and how many files had to be read.
    /// - Throws: The error of listing the folder, or `CancellationError` when `isCancelled` stopped the refresh.
    public static func refreshed(
        in directory: String, onProgress: ((_ done: Int, _ total: Int) -> Void)? = nil,
        isCancelled: (() -> Bool)? = nil, filesBeingWritten: Set<String> = []
    ) throws -> (index: SessionIndex, filesRead: Int) {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasSuffix("." + SessionFormat.fileExtension) }
        let stored = Dictionary(
            (load(from: directory)?.entries ?? []).map { ($0.file, $0) }, uniquingKeysWith: { first, _ in first })
        var entries: [Entry] = []
        var filesRead = 0
        for (done, name) in names.sorted().enumerated() {
            if isCancelled?() == true { throw CancellationError() }
            onProgress?(done, names.count)
            let path = directory + "/" + name
            guard let status = try? Syscall.status(path) else { continue }
            let modified = status.modifiedMilliseconds
            if let entry = stored[name],
                filesBeingWritten.contains(name)
                    || (entry.bytes == UInt64(status.size) && entry.modifiedMilliseconds == modified)
            {
                entries.append(entry)
            } else {
                let read = summary(of: path, bytes: UInt64(status.size), modifiedMilliseconds: modified, isCancelled)
                if read.cancelled { throw CancellationError() }
                entries.append(read.entry)
                filesRead += 1
            }
        }
        onProgress?(names.count, names.count)
        let index = SessionIndex(entries: entries)
        if filesRead > 0 || stored.count != entries.count { try? index.write(to: directory) }
        return (index, filesRead)
    }

    /// Reads the summary of one session file.
    public static func summarize(_ path: String, bytes: UInt64, modifiedMilliseconds: Int64) -> Entry {
        summary(of: path, bytes: bytes, modifiedMilliseconds: modifiedMilliseconds, nil).entry
    }

    /// How many lines of a session file are read between two questions to `isCancelled`.
    private static var linesBetweenCancellationChecks: Int { 4096 }

    /// The summary of one session file, read as it was when opened (a file still being written is not chased as it
    /// grows, and a last line still being written then is left out: ``SessionReader``); and whether `isCancelled`
    /// (asked every ``linesBetweenCancellationChecks`` lines) stopped the reading before its end: the summary is then
    /// of the lines before.
    package static func summary(
        of path: String, bytes: UInt64, modifiedMilliseconds: Int64, _ isCancelled: (() -> Bool)?
    ) -> (entry: Entry, cancelled: Bool) {
        var entry = Entry(
            file: URL(fileURLWithPath: path).lastPathComponent, bytes: bytes, modifiedMilliseconds: modifiedMilliseconds)
        var linesRead = 0
        do {
            let reader = try SessionReader(path: path)
            // A summary counts names, gaps and the end: each state is checked by the scan, never built.
            reader.defersRecordedStates = true
            while let event = try reader.next() {
                linesRead += 1
                if linesRead % Self.linesBetweenCancellationChecks == 0, isCancelled?() == true {
                    return (entry, true)
                }
                switch event {
                case .header(let header):
                    entry.sessionID = header.sessionID
                    entry.storeID = header.storeID
                    entry.appName = header.app.name
                    entry.appVersion = header.app.version
                    entry.startedAt = header.startedAt
                case .action(let action):
                    entry.actions += 1
                    entry.actionNames[action.name, default: 0] += 1
                case .gap(let gap):
                    // Actions a gap keeps are the session's, without their states; the others are lost.
                    if !gap.keepsActions { entry.lostInGaps += gap.count }
                    entry.actions += gap.actions.count
                    for action in gap.actions { entry.actionNames[action.name, default: 0] += 1 }
                case .end(let end):
                    entry.status = end.reason.rawValue
                case .call, .effectEnd, .note:
                    break
                }
            }
        } catch {
            entry.status = error.line > 0 ? "damaged (line \(error.line))" : "damaged"
            entry.damage = error.description
        }
        return (entry, false)
    }

    /// The index stored in `directory`; `nil` when missing, unreadable or of another format version.
    public static func load(from directory: String) -> SessionIndex? {
        guard let data = FileManager.default.contents(atPath: directory + "/" + fileName),
            let json = try? JSONValue(parsing: Array(data)), json["version"]?.integerValue == Int64(formatVersion),
            case .array(let encoded)? = json["entries"]
        else { return nil }
        var entries: [Entry] = []
        for item in encoded {
            guard let entry = Entry(jsonValue: item) else { return nil }
            entries.append(entry)
        }
        return SessionIndex(entries: entries)
    }

    /// Writes the index into `directory`, through a temporary file renamed over the old one, readable by its owner
    /// alone like the sessions.
    public func write(to directory: String) throws {
        let encoded = entries.map(\.jsonValue)
        let document = JSONValue.object(["version": .integer(Int64(Self.formatVersion)), "entries": .array(encoded)])
        let path = directory + "/" + Self.fileName
        let temporary = path + ".\(ProcessInfo.processInfo.processIdentifier).tmp"
        guard FileManager.default.createFile(
            atPath: temporary, contents: Data(document.canonicalBytes()), attributes: [.posixPermissions: 0o600])
        else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary]) }
        guard rename(temporary, path) == 0 else {
            try? FileManager.default.removeItem(atPath: temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
    }
}
