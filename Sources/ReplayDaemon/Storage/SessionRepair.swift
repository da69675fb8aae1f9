import Foundation
import StoreKitCore
import StoreKitReplay
import StoreKitSystem

/// At start-up, finds session files whose last line was cut off and repairs them: the partial bytes move to
/// `<file>.partial-<unix time>` and the file is truncated after its last complete line. A symbolic link or anything
/// else that is not a regular file is left alone and reported, never followed.
enum SessionRepair {
    /// One repaired file.
    struct Repair {
        /// The session file.
        var file: String
        /// Where its partial last line was kept.
        var keptAt: String
        /// How many bytes were moved.
        var byteCount: Int
    }

    /// Repairs every `*.jsonl` file in `directory` that needs it.
    /// - Returns: The repairs made, and the files that could not be checked with why.
    static func repairAll(in directory: String) -> (repairs: [Repair], failures: [(file: String, error: String)]) {
        var repairs: [Repair] = []
        var failures: [(String, String)] = []
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for name in names.sorted() where name.hasSuffix("." + SessionFormat.fileExtension) {
            let path = directory + "/" + name
            do {
                if let repair = try repair(path) { repairs.append(repair) }
            } catch {
                failures.append((path, "\(error)"))
            }
        }
        return (repairs, failures)
    }

    /// Repairs one file when its last byte is not `\n`.
    /// - Throws: ``PrivateFile/OpenError`` for a link or what is not a regular file; ``SystemError``.
    static func repair(_ path: String) throws -> Repair? {
        let fd = try PrivateFile.open(path, O_RDWR)
        // Whatever was written is flushed by the `fsync` below, which reports its failure.
        defer { try? Syscall.close(fd, subject: path) }
        let tail = try SessionFileTail(fd: fd, subject: path, maxLineBytes: Int.max / 2)
        guard tail.size > 0, try Syscall.read(fd, at: tail.size - 1, count: 1, subject: path) != [0x0A] else {
            return nil
        }
        let cut = try tail.endOfLastCompleteLine()
        let partial = try Syscall.read(fd, at: cut, count: tail.size - cut, subject: path)
        let keptAt = try keep(partial, besides: path)
        try Syscall.truncate(fd, to: cut, subject: path)
        try Syscall.fsync(fd, subject: path)
        return Repair(file: path, keptAt: keptAt, byteCount: partial.count)
    }

    private static func keep(_ bytes: [UInt8], besides path: String) throws -> String {
        let stamp = Int(Date().timeIntervalSince1970)
        var attempt = 0
        while true {
            let target = "\(path).partial-\(stamp)" + (attempt == 0 ? "" : "-\(attempt)")
            let fd: Int32
            do {
                fd = try PrivateFile.open(target, O_WRONLY | O_CREAT | O_EXCL)
            } catch {
                guard case .system(let failure) = error, failure.errno == EEXIST else { throw error }
                attempt += 1
                continue
            }
            do {
                try Syscall.writeAll(fd, bytes, subject: target)
            } catch {
                try? Syscall.close(fd, subject: target)
                throw error
            }
            try Syscall.syncAndClose(fd, subject: target)
            return target
        }
    }
}
