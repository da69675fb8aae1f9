/// The one place that calls the C library for files and sockets: every call retries on `EINTR` and turns `errno`
/// into a ``SystemError`` naming the call.
///
/// An `errno` that only a bug in this package can cause stops the process with a message naming the call: `EBADF`
/// (a descriptor that was closed, or never opened, and may by now belong to someone else) and `EFAULT` (a buffer
/// outside the process). Carrying on would read, write or close the wrong file.
///
/// The C functions themselves are called through the shims in `Platform.swift`, the one file that knows whether it
/// runs on Darwin or Linux.
package enum Syscall {
    /// Runs `body` until it stops failing with `EINTR`; a result of -1 becomes a ``SystemError``.
    ///
    /// > Warning: `EBADF` and `EFAULT` stop the process (see ``Syscall``).
    @discardableResult
    package static func retrying<T: FixedWidthInteger>(
        _ call: String, subject: String? = nil, _ body: () -> T
    ) throws(SystemError) -> T {
        while true {
            let result = body()
            if result != -1 { return result }
            let code = errno
            if code == EINTR { continue }
            stopIfBug(call, errno: code)
            throw SystemError(call: call, subject: subject, errno: code)
        }
    }

    /// Stops the process when `code` can only come from a bug in this package: `EBADF` or `EFAULT`.
    ///
    /// This is a precondition, written with `fatalError` so that the message naming the call is printed in release
    /// builds too (a failed `precondition` there stops without its message).
    private static func stopIfBug(_ call: String, errno code: Int32) {
        switch code {
        case EBADF:
            fatalError("\(call): bad file descriptor (errno \(code)) is a bug: it was closed, or never opened")
        case EFAULT:
            fatalError("\(call): bad address (errno \(code)) is a bug: a buffer outside the process")
        default:
            return
        }
    }

    /// Opens `path` with `flags` and `mode`, close-on-exec.
    package static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o600) throws(SystemError) -> Int32 {
        try retrying("open", subject: path) { systemOpen(path, flags | O_CLOEXEC, mode) }
    }

    /// Reads up to `count` bytes into `buffer`; 0 means end of file.
    package static func read(_ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int) throws(SystemError) -> Int {
        try retrying("read") { systemRead(fd, buffer, count) }
    }

    /// Writes all of `bytes`, looping over short writes.
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, subject: String? = nil) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let written = try retrying("write", subject: subject) {
                systemWrite(fd, bytes.baseAddress! + offset, bytes.count - offset)
            }
            offset += written
        }
    }

    /// Writes all of `bytes`, looping over short writes.
    package static func writeAll(_ fd: Int32, _ bytes: [UInt8], subject: String? = nil) throws(SystemError) {
        let failure = bytes.withUnsafeBytes { buffer -> SystemError? in
            do {
                try writeAll(fd, buffer, subject: subject)
                return nil
            } catch let error as SystemError {
                return error
            } catch {
                preconditionFailure("writeAll throws only SystemError")
            }
        }
        if let failure { throw failure }
    }

    /// Reads up to `buffer.count` bytes into `buffer`; 0 means end of file.
    package static func read(_ fd: Int32, into buffer: inout [UInt8]) throws(SystemError) -> Int {
        let result = buffer.withUnsafeMutableBytes { raw -> Result<Int, SystemError> in
            do {
                return .success(try read(fd, into: raw.baseAddress!, count: raw.count))
            } catch let error as SystemError {
                return .failure(error)
            } catch {
                preconditionFailure("read throws only SystemError")
            }
        }
        return try result.get()
    }

    /// Flushes the file's data to stable storage.
    package static func fsync(_ fd: Int32, subject: String? = nil) throws(SystemError) {
        try retrying("fsync", subject: subject) { systemFsync(fd) }
    }

    /// Closes `fd`, and reports what could not be done: on some file systems the last written data only fails to
    /// reach the disk now (`EIO`, `ENOSPC`, `EDQUOT`).
    ///
    /// The descriptor is released whatever the outcome, so `close` is never retried: `EINTR` is not an error (the
    /// descriptor is gone, and a second `close` could close one another thread has just been given).
    /// - Throws: ``SystemError`` naming `close` and `subject` when data may not have been written.
    /// > Warning: Closing a descriptor that is not open (`EBADF`) is a bug and stops the process.
    package static func close(_ fd: Int32, subject: String? = nil) throws(SystemError) {
        guard fd >= 0 else { fatalError("close: negative file descriptor \(fd) is a bug") }
        guard systemClose(fd) == -1 else { return }
        let code = errno
        if code == EINTR { return }
        stopIfBug("close", errno: code)
        throw SystemError(call: "close", subject: subject, errno: code)
    }

    /// Flushes the file's data to stable storage, then closes `fd` whether or not the flush worked.
    /// - Throws: ``SystemError`` from `fsync`, or else from `close`: the first thing that could not be done.
    package static func syncAndClose(_ fd: Int32, subject: String? = nil) throws(SystemError) {
        do {
            try fsync(fd, subject: subject)
        } catch {
            // The flush's error is the one worth reporting; the descriptor is released either way.
            try? close(fd, subject: subject)
            throw error
        }
        try close(fd, subject: subject)
    }
}
