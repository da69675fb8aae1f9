/// What a path names: a regular file, or one of the other things a file system holds.
///
/// Readers of sessions and state files read regular files only: a FIFO with no writer blocks `open`, and a device
/// such as `/dev/zero` never ends, so both are refused by kind before a byte is read.
public enum FileKind: Sendable, Equatable, CustomStringConvertible {
    /// A regular file.
    case regular
    /// A folder.
    case directory
    /// A named pipe.
    case fifo
    /// A character device, such as `/dev/zero` or a terminal.
    case characterDevice
    /// A block device, such as a disk.
    case blockDevice
    /// A Unix domain socket.
    case socket
    /// A symbolic link (only seen when the link itself is asked about, not followed).
    case symbolicLink
    /// A kind this type does not name.
    case other

    /// Reads the kind from the `st_mode` bits of a `stat`.
    init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFIFO: self = .fifo
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        case S_IFSOCK: self = .socket
        case S_IFLNK: self = .symbolicLink
        default: self = .other
        }
    }

    /// The kind with its article, as a message says it: `a character device`.
    public var description: String {
        switch self {
        case .regular: "a regular file"
        case .directory: "a folder"
        case .fifo: "a FIFO (named pipe)"
        case .characterDevice: "a character device"
        case .blockDevice: "a block device"
        case .socket: "a socket"
        case .symbolicLink: "a symbolic link"
        case .other: "an unknown kind of file"
        }
    }
}
