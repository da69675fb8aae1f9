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

    /// Asks the C library's allocator to grow its heaps at least `bytes` at a time, for a short-lived process that
    /// builds large trees of small allocations (a command reading states or sessions of many megabytes): far fewer
    /// `brk` and `mprotect` calls as the heap grows (the 5 MB state diff took 8-10% less time). Memory requested
    /// and never touched costs nothing. Only glibc has the setting; elsewhere this does nothing.
    package static func padHeapGrowth(bytes: Int) {
        // Only a speed-up: a C library without the setting runs the same, so its answer is not worth a report.
        _ = systemPadHeapGrowth(Int32(clamping: bytes))
    }
}
