// A call only this tool makes, wrapped here rather than in StoreKitSystem so that apps do not link it; the C
// library comes through StoreKitSystem's Platform.swift.
import StoreKitSystem

extension Syscall {
    /// Takes an exclusive advisory lock on `fd` without waiting.
    /// - Returns: False when another process holds the lock.
    package static func tryLockExclusively(_ fd: Int32, subject: String? = nil) throws(SystemError) -> Bool {
        do {
            try retrying("flock", subject: subject) { systemFlock(fd, LOCK_EX | LOCK_NB) }
            return true
        } catch where error.errno == EWOULDBLOCK {
            return false
        }
    }
}

/// `flock(2)`.
func systemFlock(_ fd: Int32, _ operation: Int32) -> Int32 { flock(fd, operation) }
