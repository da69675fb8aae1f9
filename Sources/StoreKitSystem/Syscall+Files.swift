extension Syscall {
    /// The parts of `stat` this package checks: the kind, permission bits, owner and group of a path.
    package struct FileStatus: Sendable, Equatable {
        /// The permission bits (`st_mode & 0o7777`).
        package var permissions: mode_t
        /// The owner's user id.
        package var owner: uid_t
        /// The group's id.
        package var group: gid_t
        /// True for a directory.
        package var isDirectory: Bool
        /// True for a regular file: not a directory, link, socket, FIFO or device.
        package var isRegularFile: Bool { kind == .regular }
        /// True for a socket.
        package var isSocket: Bool
        /// What the path names: a regular file, a folder, a FIFO, a device...
        package var kind: FileKind
        /// True for a symbolic link (only ``Syscall/linkStatus(_:)`` sees one; the other calls follow it).
        package var isSymbolicLink: Bool { kind == .symbolicLink }
        /// The size in bytes.
        package var size: Int
        /// Which file this is, whatever its name.
        package var identity: FileIdentity
        /// When its contents last changed, in milliseconds since 1970.
        package var modifiedMilliseconds: Int64
        /// When its contents last changed, in nanoseconds since 1970 (`st_mtim`).
        package var modifiedNanoseconds: Int64
        /// When its contents or its status (owner, mode, links, a modification time set by hand) last changed, in
        /// nanoseconds since 1970 (`st_ctim`); unlike the modification time, no program can set it back.
        package var changedNanoseconds: Int64
    }

    /// A file's device and inode, which stay the same when it is renamed and differ for a new file of that name.
    package struct FileIdentity: Sendable, Equatable {
        /// The device the file is on.
        package var device: UInt64
        /// The file's inode on that device.
        package var inode: UInt64
    }

    /// Returns the status of `path` (following symbolic links), or `nil` when it does not exist.
    package static func status(_ path: String) throws(SystemError) -> FileStatus? {
        var info = stat()
        do {
            try retrying("stat", subject: path) { systemStat(path, &info) }
        } catch where error.errno == ENOENT {
            return nil
        }
        return FileStatus(info)
    }

    /// Returns the status of `path` itself, without following a symbolic link (`lstat`), or `nil` when it does not
    /// exist.
    package static func linkStatus(_ path: String) throws(SystemError) -> FileStatus? {
        var info = stat()
        do {
            try retrying("lstat", subject: path) { systemLstat(path, &info) }
        } catch where error.errno == ENOENT {
            return nil
        }
        return FileStatus(info)
    }

    /// Returns the status of an open descriptor.
    package static func status(of fd: Int32, subject: String? = nil) throws(SystemError) -> FileStatus {
        var info = stat()
        try retrying("fstat", subject: subject) { systemFstat(fd, &info) }
        return FileStatus(info)
    }

    /// The offset in `fd` at which the next `read` starts (`lseek(fd, 0, SEEK_CUR)`); a pipe or a terminal has none
    /// and throws `ESPIPE`.
    package static func offset(of fd: Int32, subject: String? = nil) throws(SystemError) -> Int64 {
        Int64(try retrying("lseek", subject: subject) { systemLseek(fd, 0, SEEK_CUR) })
    }

    /// Opens `path` (for reading, unless `flags` say otherwise) when it is a regular file, and refuses anything else
    /// before reading or writing a byte.
    ///
    /// The file is opened non-blocking, so that a FIFO without a writer does not hang `open`, and then asked its
    /// kind with `fstat`: a folder, a FIFO, a device (`/dev/zero` never ends) or a socket is closed and refused.
    /// A regular file ignores the non-blocking flag, so reads from the descriptor returned behave as usual.
    /// - Returns: The open descriptor, close-on-exec; the caller closes it.
    /// - Throws: ``RegularFileError/system(_:)`` naming `open` or `fstat`, or ``RegularFileError/notRegular(_:)``.
    package static func openRegularFile(
        _ path: String, flags: Int32 = O_RDONLY, mode: mode_t = 0o600
    ) throws(RegularFileError) -> Int32 {
        let fd: Int32
        let kind: FileKind
        do {
            fd = try open(path, flags | O_NONBLOCK, mode: mode)
        } catch {
            throw .system(error)
        }
        do {
            kind = try status(of: fd, subject: path).kind
        } catch {
            try? close(fd, subject: path)
            throw .system(error)
        }
        guard kind == .regular else {
            try? close(fd, subject: path)
            throw .notRegular(kind)
        }
        return fd
    }

    /// Sets the permission bits of `path`.
    package static func changeMode(_ path: String, _ mode: mode_t) throws(SystemError) {
        try retrying("chmod", subject: path) { systemChmod(path, mode) }
    }

    /// Removes the file `path`; a missing file is not an error.
    package static func unlink(_ path: String) throws(SystemError) {
        do {
            try retrying("unlink", subject: path) { systemUnlink(path) }
        } catch where error.errno == ENOENT {
            return
        }
    }

    /// Moves `source` to `destination`, replacing a file there in one step.
    package static func rename(_ source: String, to destination: String) throws(SystemError) {
        try retrying("rename", subject: destination) { systemRename(source, destination) }
    }

    /// Cuts the file open as `fd` to `length` bytes.
    package static func truncate(_ fd: Int32, to length: Int, subject: String? = nil) throws(SystemError) {
        try retrying("ftruncate", subject: subject) { systemFtruncate(fd, off_t(length)) }
    }

    /// Reads up to `count` bytes at `offset` without moving the file position.
    package static func read(
        _ fd: Int32, at offset: Int, count: Int, subject: String? = nil
    ) throws(SystemError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let result = bytes.withUnsafeMutableBytes { raw -> Result<Int, SystemError> in
            do {
                return .success(
                    try retrying("pread", subject: subject) { systemPread(fd, raw.baseAddress, count, off_t(offset)) })
            } catch let error as SystemError {
                return .failure(error)
            } catch {
                preconditionFailure("pread throws only SystemError")
            }
        }
        bytes.removeLast(count - (try result.get()))
        return bytes
    }

    /// Creates a pipe whose two ends are close-on-exec and non-blocking: `(read, write)`.
    package static func makePipe() throws(SystemError) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        try retrying("pipe") { systemPipe(&ends) }
        for end in ends {
            try setFlags(end, descriptor: FD_CLOEXEC, status: O_NONBLOCK)
        }
        return (ends[0], ends[1])
    }

    /// Adds descriptor flags (`FD_CLOEXEC`) and status flags (`O_NONBLOCK`) to `fd`.
    package static func setFlags(_ fd: Int32, descriptor: Int32 = 0, status: Int32 = 0) throws(SystemError) {
        if descriptor != 0 {
            let current = try retrying("fcntl") { systemFcntl(fd, F_GETFD) }
            try retrying("fcntl") { systemFcntl(fd, F_SETFD, current | descriptor) }
        }
        if status != 0 {
            let current = try retrying("fcntl") { systemFcntl(fd, F_GETFL) }
            try retrying("fcntl") { systemFcntl(fd, F_SETFL, current | status) }
        }
    }
}

extension Syscall.FileStatus {
    init(_ info: stat) {
        permissions = info.st_mode & 0o7777
        owner = info.st_uid
        group = info.st_gid
        isDirectory = info.st_mode & S_IFMT == S_IFDIR
        isSocket = info.st_mode & S_IFMT == S_IFSOCK
        kind = FileKind(mode: info.st_mode)
        size = Int(info.st_size)
        identity = Syscall.FileIdentity(
            device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino))
        #if canImport(Darwin)
            let modified = info.st_mtimespec
            let changed = info.st_ctimespec
        #else
            let modified = info.st_mtim
            let changed = info.st_ctim
        #endif
        modifiedMilliseconds = Int64(modified.tv_sec) * 1000 + Int64(modified.tv_nsec) / 1_000_000
        modifiedNanoseconds = Int64(modified.tv_sec) * 1_000_000_000 + Int64(modified.tv_nsec)
        changedNanoseconds = Int64(changed.tv_sec) * 1_000_000_000 + Int64(changed.tv_nsec)
    }
}
