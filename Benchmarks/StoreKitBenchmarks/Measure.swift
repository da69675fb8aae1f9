import Foundation

/// Timing helpers for the benchmark table.
enum Measure {
    /// Seconds since an arbitrary point, from the monotonic clock.
    static func now() -> Double {
        secondsOf(CLOCK_MONOTONIC)
    }

    /// The CPU time this thread has used so far, in seconds: unlike the clock, it does not count the time the
    /// thread waited for a core another process held.
    static func cpuSecondsOfThisThread() -> Double {
        secondsOf(CLOCK_THREAD_CPUTIME_ID)
    }

    /// What `clock` reads, in seconds.
    private static func secondsOf(_ clock: clockid_t) -> Double {
        var spec = timespec()
        clock_gettime(clock, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// Runs `body` and returns the seconds it took.
    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = now()
        try body()
        return now() - start
    }

    /// What the kernel counted for a thread: page faults, times it blocked (a wait for a lock), and times it was
    /// preempted for another thread.
    struct ThreadCounts {
        var pageFaults: Int
        var blocked: Int
        var preempted: Int

        /// What was counted between `earlier` and `later`.
        static func - (later: ThreadCounts, earlier: ThreadCounts) -> ThreadCounts {
            ThreadCounts(
                pageFaults: later.pageFaults - earlier.pageFaults, blocked: later.blocked - earlier.blocked,
                preempted: later.preempted - earlier.preempted)
        }
    }

    /// What the kernel counted for this thread so far (the whole process's where a thread's own are not counted).
    static func countsOfThisThread() -> ThreadCounts {
        let usage = resourceUsage(ofThisThread: true)
        return ThreadCounts(
            pageFaults: usage.ru_minflt + usage.ru_majflt, blocked: usage.ru_nvcsw, preempted: usage.ru_nivcsw)
    }

    /// The CPU time, user and system, this process has used so far, in seconds.
    static func cpuSecondsOfThisProcess() -> (user: Double, system: Double) {
        let usage = resourceUsage(ofThisThread: false)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return (seconds(usage.ru_utime), seconds(usage.ru_stime))
    }

    /// `getrusage` for this thread (the whole process where a thread's own are not counted) or this process.
    private static func resourceUsage(ofThisThread: Bool) -> rusage {
        var usage = rusage()
        #if os(Linux)
            // 1 is RUSAGE_THREAD, which Glibc's module does not name.
            getrusage(ofThisThread ? __rusage_who_t(1) : RUSAGE_SELF.rawValue, &usage)
        #else
            getrusage(RUSAGE_SELF, &usage)
        #endif
        return usage
    }

    /// The value at quantile `q` (0...1) of `samples`.
    static func quantile(_ samples: [Double], _ q: Double) -> Double {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * q))]
    }
}

/// One row of the printed table: a figure beside its reference, with the ratio.
struct Row {
    var name: String
    var figure: Double
    var unit: String
    var reference: Double
    var referenceName: String
    var target: String

    var ratio: Double { reference == 0 ? 0 : figure / reference }
}

/// Prints rows as an aligned table.
enum Table {
    static func format(_ value: Double) -> String {
        if value >= 100 { return String(format: "%.0f", value) }
        if value >= 10 { return String(format: "%.1f", value) }
        return String(format: "%.3g", value)
    }

    static func print(_ rows: [Row]) {
        let header = ["measure", "figure", "reference", "ratio", "target"]
        let lines = rows.map { row in
            [
                row.name, [format(row.figure), row.unit].filter { !$0.isEmpty }.joined(separator: " "),
                [format(row.reference), row.unit, "(\(row.referenceName))"].filter { !$0.isEmpty }.joined(separator: " "),
                row.reference == 0 ? "-" : String(format: "%.2fx", row.ratio), row.target,
            ]
        }
        let widths = (0..<header.count).map { column in ([header] + lines).map { $0[column].count }.max() ?? 0 }
        for line in [header] + lines {
            Swift.print(zip(line, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  "))
        }
    }
}
