/// A thread's scheduling priority as ``Syscall/lowerCurrentThreadPriority()`` found it, to go back to with
/// ``Syscall/setCurrentThreadPriority(_:)``: a nice value on Linux, a quality-of-service class on Darwin.
package struct ThreadPriority: Sendable, Equatable {
    #if canImport(Darwin)
    fileprivate let qualityOfService: qos_class_t
    #else
    fileprivate let nice: Int32
    #endif
}

/// How far below the app's own threads ``Syscall/lowerCurrentThreadPriority(to:)`` puts a thread.
package enum BackgroundPriority: Sendable {
    /// Work the user does not wait on, such as encoding a recording: nice value raised by 10 on Linux, the
    /// `utility` quality of service on Darwin.
    case utility
    /// Work that may wait for every other thread, such as refreshing an index: the highest nice value (19) on
    /// Linux, the `background` quality of service on Darwin.
    case background
}

extension Syscall {
    /// Gives the calling thread a lower scheduling priority than the app's own threads, so background work
    /// yields the CPU to them when both want it.
    ///
    /// Linux keeps a nice value per thread: this one is raised by 10 (`utility`) or to 19 (`background`). Darwin gets
    /// the matching quality of service class. (One of the platform differences too large for a shim in
    /// `Platform.swift`.)
    /// - Returns: The priority the thread had, for ``setCurrentThreadPriority(_:)``.
    @discardableResult
    package static func lowerCurrentThreadPriority(
        to level: BackgroundPriority = .utility
    ) throws(SystemError) -> ThreadPriority {
        #if canImport(Darwin)
        let previous = ThreadPriority(qualityOfService: qos_class_self())
        let code = pthread_set_qos_class_self_np(level == .utility ? QOS_CLASS_UTILITY : QOS_CLASS_BACKGROUND, 0)
        guard code == 0 else { throw SystemError(call: "pthread_set_qos_class_self_np", subject: nil, errno: code) }
        return previous
        #else
        let previous = try currentNice()
        try setNice(level == .utility ? min(previous + 10, 19) : 19)
        return ThreadPriority(nice: previous)
        #endif
    }

    /// Gives the calling thread `priority` again, as ``lowerCurrentThreadPriority()`` found it.
    ///
    /// Darwin always allows it. Linux lets a thread lower its nice value only with `CAP_SYS_NICE` or a high enough
    /// `RLIMIT_NICE`; without them this throws and the thread keeps its lower priority.
    package static func setCurrentThreadPriority(_ priority: ThreadPriority) throws(SystemError) {
        #if canImport(Darwin)
        let code = pthread_set_qos_class_self_np(priority.qualityOfService, 0)
        guard code == 0 else { throw SystemError(call: "pthread_set_qos_class_self_np", subject: nil, errno: code) }
        #else
        try setNice(priority.nice)
        #endif
    }

    /// The most bytes of a thread's name the system keeps: 15 on Linux, 63 on Darwin.
    package static var longestThreadName: Int {
        #if canImport(Darwin)
        63
        #else
        15
        #endif
    }

    /// Names the calling thread `name` where debuggers, `top -H` and `/proc/PID/task/TID/comm` show it, cut to the
    /// first bytes the system keeps (``longestThreadName``) that end a whole character.
    ///
    /// Foundation's `Thread.name` does not do this on Linux: a name given before the thread starts never reaches
    /// the system, and one given from inside races the thread's creator. Darwin names the calling thread with
    /// `pthread_setname_np`; Linux, whose C library module leaves that GNU extension out, writes the name to
    /// `/proc/thread-self/comm`. (A platform difference that is a whole procedure, see `Platform.swift`.) A
    /// name is only a label: a caller may go on without it when this throws.
    package static func nameCurrentThread(_ name: String) throws(SystemError) {
        var bytes = 0
        let cut = name.prefix { character in
            bytes += character.utf8.count
            return bytes <= longestThreadName
        }
        #if canImport(Darwin)
        let code = String(cut).withCString { pthread_setname_np($0) }
        guard code == 0 else { throw SystemError(call: "pthread_setname_np", subject: String(cut), errno: code) }
        #else
        let path = "/proc/thread-self/comm"
        let fd = try open(path, O_WRONLY | O_CLOEXEC)
        defer { try? close(fd, subject: path) }
        try writeAll(fd, Array(cut.utf8), subject: path)
        #endif
    }

    #if !canImport(Darwin)
    /// On Linux, `who` 0 with PRIO_PROCESS names the calling thread only, not the whole process.
    private static var callingThread: __priority_which_t { __priority_which_t(PRIO_PROCESS.rawValue) }

    /// The calling thread's nice value.
    private static func currentNice() throws(SystemError) -> Int32 {
        errno = 0
        let current = getpriority(callingThread, 0)
        if current == -1 && errno != 0 { throw SystemError(call: "getpriority", subject: nil, errno: errno) }
        return current
    }

    /// Sets the calling thread's nice value.
    private static func setNice(_ value: Int32) throws(SystemError) {
        try retrying("setpriority") { setpriority(callingThread, 0, value) }
    }
    #endif
}
