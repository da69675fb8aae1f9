import Foundation
import StoreKitSystem

/// The disk side of a recorder's ``UnconfirmedLines``: the held lines it moved to a ``JournalFile`` (created on the
/// first one, in the folder of the transport's ``UnixSocketTransport/Journal`` settings), bounded in bytes, and
/// deleted once the receiver confirmed all of them.
///
/// It never throws: a line it cannot take (the bound reached, a disk error) is refused, and from then on it takes
/// none until its file is deleted, so the lines it holds always come before those held in memory, and what was lost
/// between them is one run of sequence numbers. ``problem`` says why it refused.
package final class SessionJournal {
    /// The settings: folder and bound.
    package let settings: UnixSocketTransport.Journal
    /// The socket path of the daemon the session is for.
    package let socketPath: String
    /// Makes the session's header line, written first in each journal file.
    private let makeHeader: () throws -> [UInt8]
    /// The journal file, from its first entry until everything in it is confirmed.
    private var file: JournalFile?
    /// Whether it refused a line since its file was last deleted.
    private var refusing = false
    /// Why it last refused a line, for the `gap` that records what was lost.
    package private(set) var problem: String?

    /// Creates an empty journal; no file is made until a line is appended.
    package init(settings: UnixSocketTransport.Journal, socketPath: String, header: @escaping () throws -> [UInt8]) {
        self.settings = settings
        self.socketPath = socketPath
        makeHeader = header
    }

    /// Why it refuses lines, while it does (until its file is deleted).
    package var refusal: String? { refusing ? problem : nil }

    /// True when it holds no line.
    package var isEmpty: Bool { file?.last == nil }

    /// The journal file's path, while it has one.
    package var path: String? { file?.path }

    /// Takes a line, unless it refuses one since its file was last deleted, the line would take the file beyond its
    /// bound, or the disk fails.
    /// - Returns: Whether it took the line.
    package func append(_ entry: UnconfirmedLines.Entry) -> Bool {
        guard !refusing else { return false }
        do {
            let file = try self.file ?? createFile()
            guard file.size + JournalFile.recordBytes(entry) <= settings.byteLimit else {
                refuse("the journal \(file.path) reached its bound of \(settings.byteLimit) bytes")
                return false
            }
            try file.append(entry)
            return true
        } catch {
            refuse("the journal in \(settings.folder) cannot be written: \(error)")
            return false
        }
    }

    /// Writes the lines taken so far to the file; a failure refuses further lines (those lost are then missing
    /// from the file, and a resend records them as a gap).
    package func flush() {
        do {
            try file?.flush()
        } catch {
            refuse("the journal in \(settings.folder) cannot be written: \(error)")
        }
    }

    /// Calls `body` with each line held, in order; a file that cannot be read ends them (a resend then records
    /// what is missing as a gap).
    /// - Throws: What `body` throws.
    package func forEachEntry(_ body: (UnconfirmedLines.Entry) throws -> Void) throws {
        guard let file else { return }
        do {
            try file.forEachEntry { entry in
                do {
                    try body(entry)
                } catch {
                    throw Forwarded(error: error)
                }
            }
        } catch let forwarded as Forwarded {
            throw forwarded.error
        } catch {
            refuse("the journal \(file.path) cannot be read: \(error)")
        }
    }

    /// Deletes the file once the receiver confirmed every line in it.
    package func confirm(through confirmed: Int) {
        guard let last = file?.last else { return }
        let isConfirmed = last.isUnnumbered ? last.sequences.upperBound < confirmed : last.sequences.upperBound <= confirmed
        if isConfirmed { removeFile() }
    }

    /// Deletes the file and takes lines again.
    package func removeFile() {
        file?.remove()
        file = nil
        refusing = false
    }

    /// Closes the file, which stays for a later transport to send (an empty one is deleted).
    package func close() {
        if isEmpty {
            removeFile()
        } else {
            file?.close()
            file = nil
        }
        refusing = true
    }

    private func createFile() throws -> JournalFile {
        try JournalFolder.create(settings.folder)
        let path = settings.folder + "/" + UUID().uuidString.lowercased() + JournalFolder.fileExtension
        let file = try JournalFile.create(path: path, socketPath: socketPath, header: makeHeader())
        self.file = file
        return file
    }

    /// An error of the body of ``forEachEntry(_:)``, told apart from the file's own.
    private struct Forwarded: Error {
        var error: any Error
    }

    private func refuse(_ reason: String) {
        refusing = true
        problem = reason
    }
}
