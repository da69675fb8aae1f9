import Foundation
import StoreKitCore
import StoreKitSystem

/// The folders above the daemon's private folders (the socket's and the sessions') that every user can write to,
/// reported at start as warnings.
///
/// The private folders themselves are checked strictly (``DaemonListener/preparePrivateDirectory(_:)``), but a user
/// who can write to a folder above one can rename it away and put a folder of their own in its place, unless that
/// folder has the sticky bit (as `/tmp` has), which lets only a file's owner rename it.
enum OpenAncestorFolders {
    /// Logs one `folder.writable_by_others` warning for each folder above `directories` that others can write to.
    static func warn(about directories: [String], log: DaemonLog) {
        var reported: Set<String> = []
        for directory in directories {
            for folder in ancestors(of: directory) where reported.insert(folder).inserted {
                guard let status = try? Syscall.status(folder), status.permissions & 0o002 != 0 else { continue }
                let sticky = status.permissions & 0o1000 != 0
                log.write(.warn, "folder.writable_by_others", [
                    "folder": .string(folder), "below": .string(directory),
                    "mode": .string(String(status.permissions, radix: 8)), "sticky": .bool(sticky),
                    "reason": .string(
                        sticky
                            ? "every user can write to this folder; its sticky bit stops them from renaming or removing "
                                + "what they do not own, but a folder only you can write to is safer"
                            : "every user can write to this folder, so another user could rename \(directory) and put "
                                + "their own in its place; use a folder only you can write to (or one with the sticky bit)"),
                ])
            }
        }
    }

    /// The folders above `directory`, nearest first, up to `/`.
    private static func ancestors(of directory: String) -> [String] {
        var path = ((directory.hasPrefix("/") ? "" : FileManager.default.currentDirectoryPath + "/") + directory as NSString)
            .standardizingPath
        var folders: [String] = []
        while path != "/" {
            path = (path as NSString).deletingLastPathComponent
            if path.isEmpty { break }
            folders.append(path)
        }
        return folders
    }
}
