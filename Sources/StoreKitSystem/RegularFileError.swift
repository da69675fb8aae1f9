/// Why a path could not be opened as a regular file for reading (``Syscall/openRegularFile(_:)``).
///
/// Rendered like `it is a character device, not a regular file`, or as the failed call's ``SystemError``.
package enum RegularFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A call failed: `open` (no such file, no permission) or `fstat`.
    case system(SystemError)
    /// The path names something other than a regular file: a folder, a FIFO, a device, a socket.
    case notRegular(FileKind)

    /// What went wrong, to follow the name of the file.
    package var description: String {
        switch self {
        case .system(let error): "\(error)"
        case .notRegular(let kind): "it is \(kind), not a regular file"
        }
    }
}
