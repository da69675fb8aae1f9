import Foundation
import StoreKitCore
import StoreKitReplay
import StoreKitSystem

/// Which stored sessions to remove so the session folder stays within an age and a size: `replayd --max-age` and
/// `--max-bytes`. Only sessions no client is recording are ever removed, oldest (by last write) first.
struct SessionRetention: Sendable {
    /// A session file as the folder lists it.
    struct StoredFile: Sendable, Equatable {
        /// Its name in the folder.
        var name: String
        /// Its size.
        var bytes: UInt64
        /// When it was last written.
        var modified: Date
    }

    /// Why a file goes.
    enum Reason: String, Sendable {
        /// It was last written longer ago than the age limit.
        case maxAge
        /// The folder holds more than the size limit, and it is among the oldest.
        case maxBytes
    }

    /// A file to remove, and why.
    struct Removal: Sendable, Equatable {
        /// The file.
        var file: StoredFile
        /// Why.
        var reason: Reason
    }

    /// Sessions last written longer ago than this go; `nil` for no age limit.
    var maxAge: Duration?
    /// While the folder's sessions take more bytes than this, the oldest finished ones go; `nil` for no limit.
    var maxBytes: UInt64?

    /// True when there is a limit to keep.
    var isEnabled: Bool { maxAge != nil || maxBytes != nil }

    /// How often the daemon looks: a minute, or more often for a short age limit (at least once a second).
    var checkInterval: Duration {
        guard let maxAge else { return .seconds(60) }
        return max(min(maxAge / 4, .seconds(60)), .seconds(1))
    }

    /// The files to remove from `files`, oldest first, never one named in `open`.
    func removals(of files: [StoredFile], open: Set<String>, now: Date) -> [Removal] {
        var removals: [Removal] = []
        var kept: [StoredFile] = []
        let oldestFirst = files.sorted { ($0.modified, $0.name) < ($1.modified, $1.name) }
        for file in oldestFirst {
            if let maxAge, !open.contains(file.name), now.timeIntervalSince(file.modified) > maxAge.seconds {
                removals.append(Removal(file: file, reason: .maxAge))
            } else {
                kept.append(file)
            }
        }
        guard let maxBytes else { return removals }
        var total = kept.reduce(UInt64(0)) { $0 + $1.bytes }
        for file in kept where total > maxBytes && !open.contains(file.name) {
            removals.append(Removal(file: file, reason: .maxBytes))
            total -= file.bytes
        }
        return removals
    }

    /// The session files in `directory` (`*.jsonl`), with their sizes and times. Only regular files are listed: a
    /// symbolic link is neither followed nor removed. Unreadable entries are left out.
    static func storedFiles(in directory: String) -> [StoredFile] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix("." + SessionFormat.fileExtension) }.compactMap { name in
            guard let status = try? Syscall.linkStatus(directory + "/" + name), status.isRegularFile else {
                return nil
            }
            return StoredFile(
                name: name, bytes: UInt64(status.size),
                modified: Date(timeIntervalSince1970: Double(status.modifiedNanoseconds) / 1e9))
        }
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
