// Calls only the daemon makes, wrapped here rather than in StoreKitSystem so that apps do not link them; the C
// library comes through StoreKitSystem's Platform.swift.
import StoreKitReplay
import StoreKitSystem

extension Syscall {
    /// Maps `length` bytes of fresh memory, zeroed, readable and writable, and private to this process.
    ///
    /// Unlike a block from `malloc`, the pages go back to the system as soon as ``unmap(_:length:)`` removes them,
    /// whatever the allocator has learned from earlier frees.
    package static func mapPrivate(length: Int) throws(SystemError) -> UnsafeMutableRawPointer {
        guard let address = systemMapPrivate(length) else {
            let code = errno
            throw SystemError(call: "mmap", subject: "\(length) bytes", errno: code)
        }
        return address
    }
}

/// `mmap(2)` of anonymous private memory; `nil` when it fails.
func systemMapPrivate(_ length: Int) -> UnsafeMutableRawPointer? {
    let address = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANON, -1, 0)
    return address == MAP_FAILED ? nil : address
}
