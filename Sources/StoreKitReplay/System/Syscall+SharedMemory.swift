// A call only this tool makes, wrapped here rather than in StoreKitSystem so that apps do not link it; the C
// library comes through StoreKitSystem's Platform.swift.
import StoreKitSystem

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

    /// Removes a mapping made by ``mapShared(_:length:subject:)`` or the daemon's `mapPrivate(length:)`.
    package static func unmap(_ address: UnsafeMutableRawPointer, length: Int) throws(SystemError) {
        try retrying("munmap") { systemUnmap(address, length) }
    }
}

/// `mmap(2)` of a whole file, shared with every process that maps or reads it; `nil` when it fails.
func systemMapShared(_ fd: Int32, _ length: Int) -> UnsafeMutableRawPointer? {
    let address = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
    return address == MAP_FAILED ? nil : address
}

/// `munmap(2)`.
func systemUnmap(_ address: UnsafeMutableRawPointer, _ length: Int) -> Int32 { munmap(address, length) }
