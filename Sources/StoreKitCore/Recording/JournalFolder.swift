import Foundation
import StoreKitSystem

/// The folder of journal files (``UnixSocketTransport/Journal/folder``): made private to its owner, and listed for
/// the journals earlier apps left behind.
enum JournalFolder {
    /// How a journal file's name ends.
    static let fileExtension = ".journal"

    /// Creates the folder (and those above it) if needed, and sets its mode to 0700.
    /// - Throws: When the folder cannot be created or its mode set.
    static func create(_ folder: String) throws {
        try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try Syscall.changeMode(folder, 0o700)
    }

    /// The paths of the journal files in `folder`, in name order; none when it cannot be listed.
    static func journals(in folder: String) -> [String] {
        // A folder that does not exist (or cannot be read) holds no journal this app can send.
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(fileExtension) }.sorted().map { folder + "/" + $0 }
    }
}
