extension Syscall {
    /// The process's limits on open file descriptors (`RLIMIT_NOFILE`).
    package struct DescriptorLimit: Sendable, Equatable {
        /// The limit in force: `open`, `accept` and `pipe` fail with `EMFILE` beyond it.
        package var soft: UInt64
        /// How far the process may raise ``soft`` itself.
        package var hard: UInt64
    }

    /// The process's limits on open file descriptors.
    package static func descriptorLimit() throws(SystemError) -> DescriptorLimit {
        var limit = rlimit()
        try retrying("getrlimit", subject: "RLIMIT_NOFILE") { systemGetDescriptorLimit(&limit) }
        return DescriptorLimit(soft: UInt64(limit.rlim_cur), hard: UInt64(limit.rlim_max))
    }

    /// Raises the soft limit on open file descriptors as far as the platform lets a process: to the hard limit, or
    /// on Darwin to `OPEN_MAX` (10240) when the hard limit is higher. A soft limit already there is left alone; none
    /// is lowered.
    /// - Returns: The limits in force afterwards.
    /// - Throws: ``SystemError`` naming `getrlimit` or `setrlimit`; the limits are then unchanged.
    package static func raiseDescriptorSoftLimit() throws(SystemError) -> DescriptorLimit {
        var current = try descriptorLimit()
        let target = min(current.hard, systemDescriptorSoftLimitCeiling)
        guard current.soft < target else { return current }
        var limit = rlimit(rlim_cur: rlim_t(target), rlim_max: rlim_t(current.hard))
        try retrying("setrlimit", subject: "RLIMIT_NOFILE") { systemSetDescriptorLimit(&limit) }
        current.soft = target
        return current
    }
}

extension Syscall {
    /// The most memory the process has had resident at once so far (`getrusage`'s `ru_maxrss`), in bytes.
    package static func peakResidentBytes() throws(SystemError) -> Int {
        var usage = rusage()
        try retrying("getrusage", subject: "RUSAGE_SELF") { systemGetResourceUsage(&usage) }
        return Int(usage.ru_maxrss) * systemMaxResidentUnit
    }
}
