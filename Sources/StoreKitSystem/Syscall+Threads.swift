extension Syscall {
    /// Gives the calling thread a lower scheduling priority than the app's own threads, so background work
    /// (encoding a recording) yields the CPU to them when both want it.
    ///
    /// Linux keeps a nice value per thread: this one is raised by 10. Darwin gets the `utility` quality of
    /// service, its class for work the user does not wait on. (One of the two platform differences too large for a
    /// shim in `Platform.swift`.)
    package static func lowerCurrentThreadPriority() throws(SystemError) {
        #if canImport(Darwin)
        let code = pthread_set_qos_class_self_np(QOS_CLASS_UTILITY, 0)
        guard code == 0 else { throw SystemError(call: "pthread_set_qos_class_self_np", subject: nil, errno: code) }
        #else
        // On Linux, `who` 0 with PRIO_PROCESS names the calling thread only, not the whole process.
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        errno = 0
        let current = getpriority(which, 0)
        if current == -1 && errno != 0 { throw SystemError(call: "getpriority", subject: nil, errno: errno) }
        try retrying("setpriority") { setpriority(which, 0, min(current + 10, 19)) }
        #endif
    }
}
