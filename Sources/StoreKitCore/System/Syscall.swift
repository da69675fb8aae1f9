/// The one place that calls the C library for files: every call retries on `EINTR` and turns `errno` into a
/// ``SystemError`` naming the call.
package enum Syscall {
    /// Runs `body` until it stops failing with `EINTR`; a result of -1 becomes a ``SystemError``.
    @discardableResult
    package static func retrying<T: FixedWidthInteger>(
        _ call: String, subject: String? = nil, _ body: () -> T
    ) throws(SystemError) -> T {
        while true {
            let result = body()
            if result != -1 { return result }
            let code = errno
            if code == EINTR { continue }
            throw SystemError(call: call, subject: subject, errno: code)
        }
    }

    /// Opens `path` with `flags` and `mode`, close-on-exec.
    package static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o600) throws(SystemError) -> Int32 {
        try retrying("open", subject: path) { () -> Int32 in
            #if canImport(Darwin)
            Darwin.open(path, flags | O_CLOEXEC, mode)
            #else
            Glibc.open(path, flags | O_CLOEXEC, mode)
            #endif
        }
    }

    /// Reads up to `count` bytes into `buffer`; 0 means end of file.
    package static func read(_ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int) throws(SystemError) -> Int {
        try retrying("read") { () -> Int in
            #if canImport(Darwin)
            Darwin.read(fd, buffer, count)
            #else
            Glibc.read(fd, buffer, count)
            #endif
        }
    }

    /// Writes all of `bytes`, looping over short writes.
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, subject: String? = nil) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let written = try retrying("write", subject: subject) { () -> Int in
                #if canImport(Darwin)
                Darwin.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                #else
                Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                #endif
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
        try retrying("fsync", subject: subject) { () -> Int32 in
            #if canImport(Darwin)
            Darwin.fsync(fd)
            #else
            Glibc.fsync(fd)
            #endif
        }
    }

    /// Closes `fd`; `EINTR` is ignored because the descriptor is released either way.
    package static func close(_ fd: Int32) {
        precondition(fd >= 0, "closing a negative file descriptor is a bug")
        #if canImport(Darwin)
        _ = Darwin.close(fd)
        #else
        _ = Glibc.close(fd)
        #endif
    }
}
