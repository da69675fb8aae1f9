/// Lets a flood of one kind of log entry through at a bounded rate: at most ``perSecond`` in any one second,
/// counting the ones held back so that the next entry written can say how many were left out.
struct EventThrottle {
    /// How many entries a second are written.
    let perSecond: Int
    private var secondStartedAt: UInt64?
    private var writtenThisSecond = 0
    private var heldBack = 0

    /// Creates a throttle that writes `perSecond` entries a second.
    init(perSecond: Int) {
        self.perSecond = perSecond
    }

    /// Whether an entry for an event at `now` (monotonic nanoseconds) is written.
    /// - Returns: `nil` when it is held back; otherwise how many were held back since the last one written.
    mutating func pass(now: UInt64) -> Int? {
        if let started = secondStartedAt, now &- started < 1_000_000_000 {
            guard writtenThisSecond < perSecond else {
                heldBack += 1
                return nil
            }
        } else {
            secondStartedAt = now
            writtenThisSecond = 0
        }
        writtenThisSecond += 1
        defer { heldBack = 0 }
        return heldBack
    }
}
