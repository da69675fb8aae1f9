import StoreKitCore
import StoreKitSystem

/// A regular file in one of the daemon's own folders (a session file, a cut-off line kept aside, the socket's
/// lock), opened without following a symbolic link.
///
/// Whatever the daemon creates, appends to or truncates must be a regular file in its folder: a link planted at a
/// session's path or at `<socket>.lock` would have the daemon write through it to a file elsewhere, and a FIFO or a
/// device could block it.
enum PrivateFile {
    /// Why a path was not opened.
    enum OpenError: Error, CustomStringConvertible {
        /// The path is a symbolic link, which the daemon never follows.
        case symbolicLink(path: String)
        /// The path is something other than a regular file: a directory, a FIFO, a socket or a device.
        case notRegularFile(path: String)
        /// The call failed.
        case system(SystemError)

        var description: String {
            switch self {
            case .symbolicLink(let path): "\(path) is a symbolic link; replayd does not follow links in its folders"
            case .notRegularFile(let path): "\(path) is not a regular file"
            case .system(let error): error.description
            }
        }
    }

    /// Opens `path` with `flags` plus `O_NOFOLLOW`, `O_NONBLOCK` (so a FIFO cannot block) and `O_CLOEXEC`, and
    /// returns the descriptor when it is a regular file.
    /// - Throws: ``OpenError`` for a link, for anything but a regular file, or with the failed call.
    static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o600) throws(OpenError) -> Int32 {
        do {
            return try Syscall.openRegularFile(path, flags: flags | O_NOFOLLOW, mode: mode)
        } catch .system(let error) where error.errno == ELOOP && (try? Syscall.linkStatus(path))??.isSymbolicLink == true {
            throw .symbolicLink(path: path)
        } catch .system(let error) {
            throw .system(error)
        } catch {
            throw .notRegularFile(path: path)
        }
    }
}
