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

    /// Takes an exclusive advisory lock on `fd`, waiting while another process holds it.
    package static func lockExclusively(_ fd: Int32, subject: String? = nil) throws(SystemError) {
        try retrying("flock", subject: subject) { systemFlock(fd, LOCK_EX) }
    }
}

/// `flock(2)`.
func systemFlock(_ fd: Int32, _ operation: Int32) -> Int32 { flock(fd, operation) }
