import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import StoreKitSystem

/// The header line of a session file that already exists, checked before a reconnecting client's lines are appended
/// to it: the file must hold the session the client continues.
///
/// A file name can be shared by two sessions: a file an older replayd named another way, or two ids whose hashes
/// collide (see ``SessionFileName``). Appending one session under another's header would merge them, so a file whose
/// header names another store id or session id is never appended to.
enum StoredHeader {
    /// Reads the header of the file open as `fd` and checks that it is `header`'s session, byte for byte.
    /// - Parameter name: The file's name, for messages.
    /// - Returns: The stored header, whose format the session's next lines keep.
    /// - Throws: ``SessionFile/OpenError`` when the file holds another session or its first line is not a readable
    ///   header; ``SystemError`` when it cannot be read.
    static func check(fd: Int32, path: String, name: String, continuing header: SessionHeader) throws -> SessionHeader {
        let line = try firstLine(fd: fd, path: path, name: name)
        let stored: SessionHeader
        do {
            guard case .header(let header) = try SessionEvent(jsonValue: JSONValue(parsing: line)) else {
                throw SessionFile.OpenError(description: "the stored file \(name) does not start with a session header")
            }
            stored = header
        } catch let error as SessionFile.OpenError {
            throw error
        } catch {
            throw SessionFile.OpenError(description: "the stored file \(name) starts with an unreadable header: \(error)")
        }
        guard stored.storeID.utf8.elementsEqual(header.storeID.utf8),
            stored.sessionID.utf8.elementsEqual(header.sessionID.utf8)
        else {
            throw SessionFile.OpenError(
                description: "the stored file \(name) holds another session (store '\(stored.storeID)', session "
                    + "'\(stored.sessionID)'); a session is never appended to another's file")
        }
        return stored
    }

    /// The file's first line, without its `\n`, read up to the session format's line limit (whatever the daemon's
    /// own limit is now, the file may have been written under a larger one).
    private static func firstLine(fd: Int32, path: String, name: String) throws -> [UInt8] {
        let maxLineBytes = SessionFormat.defaultMaxLineBytes
        var line: [UInt8] = []
        while true {
            let chunk = try Syscall.read(fd, at: line.count, count: 1 << 16, subject: path)
            if let newline = chunk.firstIndex(of: 0x0A) { return line + chunk[..<newline] }
            line += chunk
            if chunk.isEmpty || line.count > maxLineBytes {
                throw SessionFile.OpenError(
                    description: "the stored file \(name) has no complete first line within \(maxLineBytes) bytes")
            }
        }
    }
}
