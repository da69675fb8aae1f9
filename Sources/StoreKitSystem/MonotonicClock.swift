/// Reads the system's monotonic clock, which never jumps when the wall clock is changed.
package enum MonotonicClock {
    /// Nanoseconds since an arbitrary fixed point (boot, on most systems).
    package static func nanoseconds() -> UInt64 {
        var spec = timespec()
        // CLOCK_MONOTONIC cannot fail with a valid clock id and pointer.
        _ = clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }
}
