import Foundation
import StoreKitSystem

/// The folder of journal segment files (``UnixSocketTransport/Journal/folder``): made private to its owner, named
/// so that a journal's segments sort together and in order, and listed for the journals earlier apps left behind.
///
/// A segment's name is the journal's id (a lowercase UUID), a dot, the segment's number (from 1, six digits or more)
/// and `.journal`: `3f2a…-9c1d.000002.journal`. A name without a number (`<id>.journal`, as an earlier version
/// wrote a journal in one file) is the journal's only segment.
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

    /// The path of segment `number` of the journal `id` in `folder`.
    static func segmentPath(folder: String, journal id: String, number: Int) -> String {
        let digits = String(number)
        return folder + "/" + id + "." + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
            + fileExtension
    }

    /// The journals in `folder`, each as the paths of its segments in order, the journals in id order; none when
    /// it cannot be listed.
    static func journals(in folder: String) -> [[String]] {
        // A folder that does not exist (or cannot be read) holds no journal this app can send.
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let segments = names.filter { $0.hasSuffix(fileExtension) }.map { name in
            let stem = name.dropLast(fileExtension.count)
            if let dot = stem.lastIndex(of: "."), let number = Int(stem[stem.index(after: dot)...]) {
                return (id: String(stem[..<dot]), number: number, path: folder + "/" + name)
            }
            return (id: String(stem), number: 0, path: folder + "/" + name)
        }
        return Dictionary(grouping: segments, by: \.id).sorted { $0.key < $1.key }.map { _, segments in
            segments.sorted { $0.number < $1.number }.map(\.path)
        }
    }
}
