// The C library this package builds on, and the calls `Syscall` makes into it.
//
// This is the one file that asks which C library it has (the few calls only a tool makes are wrapped in that tool,
// in a `Syscall+...` file of its `System` folder, and reach the C library through this one). The functions below
// give each C call a name that `Syscall`'s own methods (`open`, `read`, `close`, `bind`, ...) do not shadow, so the
// wrappers call them without naming the module (`Darwin.close` or `Glibc.close`). Each returns what the C function returns: `Syscall` retries
// on `EINTR` and turns -1 into a `SystemError`. Where Darwin and Linux differ, the difference is written here once.
// (Four differences are whole procedures and live in one place each: `Syscall.peerCredentials`,
// `Syscall.lowerCurrentThreadPriority`, `Syscall.nameCurrentThread`, and the CPU affinity calls of
// `Syscall+CPUAffinity.swift`, which Darwin lacks.)

#if canImport(Darwin)
@_exported import Darwin
#elseif canImport(Glibc)
@_exported import Glibc
#else
#error("StoreKitSystem is written for Darwin and Glibc: give Platform.swift a branch for this C library first.")
#endif

// MARK: - Files

/// `open(2)`, always with a mode.
func systemOpen(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 { open(path, flags, mode) }

/// `read(2)`.
func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }

/// `pread(2)`.
func systemPread(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int, _ offset: off_t) -> Int {
    pread(fd, buffer, count, offset)
}

/// `write(2)`.
func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int { write(fd, bytes, count) }

/// `lseek(2)`.
func systemLseek(_ fd: Int32, _ offset: off_t, _ whence: Int32) -> off_t { lseek(fd, offset, whence) }

/// `fsync(2)`.
func systemFsync(_ fd: Int32) -> Int32 { fsync(fd) }

/// `close(2)`.
func systemClose(_ fd: Int32) -> Int32 { close(fd) }

/// `stat(2)`.
func systemStat(_ path: UnsafePointer<CChar>, _ info: UnsafeMutablePointer<stat>) -> Int32 { stat(path, info) }

/// `lstat(2)`: the status of a symbolic link itself, not of what it points to.
func systemLstat(_ path: UnsafePointer<CChar>, _ info: UnsafeMutablePointer<stat>) -> Int32 { lstat(path, info) }

/// `fstat(2)`.
func systemFstat(_ fd: Int32, _ info: UnsafeMutablePointer<stat>) -> Int32 { fstat(fd, info) }

/// `chmod(2)`.
func systemChmod(_ path: UnsafePointer<CChar>, _ mode: mode_t) -> Int32 { chmod(path, mode) }

/// `unlink(2)`.
func systemUnlink(_ path: UnsafePointer<CChar>) -> Int32 { unlink(path) }

/// `rename(2)`.
func systemRename(_ from: UnsafePointer<CChar>, _ to: UnsafePointer<CChar>) -> Int32 { rename(from, to) }

/// `ftruncate(2)`.
func systemFtruncate(_ fd: Int32, _ length: off_t) -> Int32 { ftruncate(fd, length) }

/// `pipe(2)`: `ends` holds two descriptors, the read end first.
func systemPipe(_ ends: UnsafeMutablePointer<Int32>) -> Int32 { pipe(ends) }

/// `fcntl(2)` for a command without an argument (`F_GETFD`, `F_GETFL`).
func systemFcntl(_ fd: Int32, _ command: Int32) -> Int32 { fcntl(fd, command) }

/// `fcntl(2)` for a command with an integer argument (`F_SETFD`, `F_SETFL`).
func systemFcntl(_ fd: Int32, _ command: Int32, _ value: Int32) -> Int32 { fcntl(fd, command, value) }

// MARK: - Limits

/// `getrlimit(RLIMIT_NOFILE)`: the process's limits on open file descriptors.
func systemGetDescriptorLimit(_ limit: UnsafeMutablePointer<rlimit>) -> Int32 {
    #if canImport(Darwin)
    getrlimit(RLIMIT_NOFILE, limit)
    #else
    getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), limit)
    #endif
}

/// `setrlimit(RLIMIT_NOFILE)`.
func systemSetDescriptorLimit(_ limit: UnsafePointer<rlimit>) -> Int32 {
    #if canImport(Darwin)
    setrlimit(RLIMIT_NOFILE, limit)
    #else
    setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), limit)
    #endif
}

/// `getrusage(RUSAGE_SELF)`: what the process has used so far.
func systemGetResourceUsage(_ usage: UnsafeMutablePointer<rusage>) -> Int32 {
    #if canImport(Darwin)
    getrusage(RUSAGE_SELF, usage)
    #else
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), usage)
    #endif
}

/// The unit of `rusage.ru_maxrss` in bytes: Darwin counts bytes, Linux kilobytes.
let systemMaxResidentUnit: Int = {
    #if canImport(Darwin)
    1
    #else
    1024
    #endif
}()

/// The highest soft limit on open file descriptors `setrlimit` takes. Darwin refuses one above `OPEN_MAX` (10240)
/// whatever the hard limit says (which is often `RLIM_INFINITY` there); Linux takes anything up to the hard limit.
let systemDescriptorSoftLimitCeiling: UInt64 = {
    #if canImport(Darwin)
    10240
    #else
    UInt64.max
    #endif
}()

// MARK: - Sockets

/// `socket(2)` for a Unix domain stream socket.
func systemUnixStreamSocket() -> Int32 {
    #if canImport(Darwin)
    socket(AF_UNIX, SOCK_STREAM, 0)
    #else
    socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    #endif
}

/// `socketpair(2)` for a pair of connected Unix domain stream sockets.
func systemUnixStreamSocketPair(_ ends: UnsafeMutablePointer<Int32>) -> Int32 {
    #if canImport(Darwin)
    socketpair(AF_UNIX, SOCK_STREAM, 0, ends)
    #else
    socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, ends)
    #endif
}

/// `setsockopt(2)`.
func systemSetsockopt(
    _ fd: Int32, _ level: Int32, _ option: Int32, _ value: UnsafeRawPointer?, _ length: socklen_t
) -> Int32 {
    setsockopt(fd, level, option, value, length)
}

/// `bind(2)`.
func systemBind(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    bind(fd, address, length)
}

/// `connect(2)`.
func systemConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    connect(fd, address, length)
}

/// `listen(2)`.
func systemListen(_ fd: Int32, _ backlog: Int32) -> Int32 { listen(fd, backlog) }

/// `accept(2)`, not asking for the peer's address.
func systemAccept(_ fd: Int32) -> Int32 { accept(fd, nil, nil) }

/// `recv(2)`.
func systemRecv(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int, _ flags: Int32) -> Int {
    recv(fd, buffer, count, flags)
}

/// `poll(2)`.
func systemPoll(_ descriptors: UnsafeMutablePointer<pollfd>?, _ count: nfds_t, _ timeoutMilliseconds: Int32) -> Int32 {
    poll(descriptors, count, timeoutMilliseconds)
}

// MARK: - SIGPIPE
//
// A write to a socket whose peer has gone raises SIGPIPE, which kills the process unless it is ignored. Darwin turns
// that off per socket (`SO_NOSIGPIPE`); Linux has no such option and turns it off per send (`MSG_NOSIGNAL`).

/// Stops writes to the socket `fd` from raising `SIGPIPE` where the platform does that per socket (`SO_NOSIGPIPE`
/// on Darwin); on Linux, where ``systemSend(_:_:_:)`` does it per send, it does nothing and returns 0.
func systemSetNoSIGPIPE(_ fd: Int32) -> Int32 {
    #if canImport(Darwin)
    var on: Int32 = 1
    return setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
    #else
    return 0
    #endif
}

/// `send(2)` that never raises `SIGPIPE`: it passes `MSG_NOSIGNAL` on Linux; on Darwin the socket carries
/// `SO_NOSIGPIPE` from ``systemSetNoSIGPIPE(_:)``.
func systemSend(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Darwin)
    send(fd, bytes, count, 0)
    #else
    send(fd, bytes, count, Int32(MSG_NOSIGNAL))
    #endif
}

// MARK: - CPU affinity
//
// Linux keeps the CPUs each thread may run on; Darwin has no way to keep a thread on a CPU (its affinity tags only
// hint that threads share a cache), so it has none of these. Glibc declares `sched_getcpu` and the affinity calls
// only for `_GNU_SOURCE`, which Swift's Glibc module does not define: they are looked up once by name instead.

#if !canImport(Darwin)
/// Glibc's `sched_getcpu`, `sched_getaffinity` and `sched_setaffinity`, found in the running process.
private enum SchedulerCalls {
    typealias GetCPU = @convention(c) () -> Int32
    typealias GetAffinity = @convention(c) (pid_t, Int, UnsafeMutablePointer<cpu_set_t>) -> Int32
    typealias SetAffinity = @convention(c) (pid_t, Int, UnsafePointer<cpu_set_t>) -> Int32

    static let getCPU = find("sched_getcpu", as: GetCPU.self)
    static let getAffinity = find("sched_getaffinity", as: GetAffinity.self)
    static let setAffinity = find("sched_setaffinity", as: SetAffinity.self)

    private static func find<Function>(_ name: String, as type: Function.Type) -> Function? {
        guard let address = dlsym(dlopen(nil, RTLD_NOW), name) else { return nil }
        return unsafeBitCast(address, to: type)
    }

    /// What `body` returns from `call`; -1 with `ENOSYS` where the C library lacks it.
    static func calling<Function>(_ call: Function?, _ body: (Function) -> Int32) -> Int32 {
        guard let call else {
            errno = ENOSYS
            return -1
        }
        return body(call)
    }
}

/// `sched_getcpu(3)`: the CPU the calling thread runs on.
func systemSchedGetcpu() -> Int32 {
    SchedulerCalls.calling(SchedulerCalls.getCPU) { $0() }
}

/// `sched_getaffinity(2)` for the calling thread.
func systemSchedGetaffinity(_ set: UnsafeMutablePointer<cpu_set_t>) -> Int32 {
    SchedulerCalls.calling(SchedulerCalls.getAffinity) { $0(0, MemoryLayout<cpu_set_t>.size, set) }
}

/// `sched_setaffinity(2)` for the calling thread.
func systemSchedSetaffinity(_ set: UnsafePointer<cpu_set_t>) -> Int32 {
    SchedulerCalls.calling(SchedulerCalls.setAffinity) { $0(0, MemoryLayout<cpu_set_t>.size, set) }
}
#endif
