extension Syscall {
    /// Maps the first `length` bytes of the file open as `fd` into memory, readable and writable and shared: a store
    /// into the mapping is in the file at once (in the kernel's page cache), for any process that reads it, even if
    /// this process dies right after without another call.
    package static func mapShared(_ fd: Int32, length: Int, subject: String? = nil) throws(SystemError) -> UnsafeMutableRawPointer {
        guard let address = systemMapShared(fd, length) else {
            let code = errno
            throw SystemError(call: "mmap", subject: subject, errno: code)
        }
        return address
    }

    /// Removes a mapping made by ``mapShared(_:length:subject:)``.
    package static func unmap(_ address: UnsafeMutableRawPointer, length: Int) throws(SystemError) {
        try retrying("munmap") { systemUnmap(address, length) }
    }
}
