/// The waits between attempts to reach a daemon that is away: a fixed short wait while it has been away for less
/// than ``fixedRateSeconds`` (a restart, which takes about a second, is found within one short wait of its end),
/// then twice the last wait each time, up to ``longestDelay`` (a daemon gone for good costs an attempt every few
/// seconds, never a spin).
///
/// Time away is the sum of the waits handed out since the last success, so the sequence depends on nothing but the
/// failures: with the defaults, 10 ms a hundred times, then 20, 40, 80 ms and so on, up to 5 s.
package struct ReconnectBackoff {
    /// The wait after a failure during the fixed-rate phase, and the first one doubled after it, in seconds.
    package let firstDelay: Double
    /// How long the waits stay at ``firstDelay``, in seconds of waits handed out.
    package let fixedRateSeconds: Double
    /// The longest wait, in seconds.
    package let longestDelay: Double
    /// The seconds of waits handed out since the last success.
    private var waited = 0.0
    /// The last wait handed out since the last success.
    private var lastDelay: Double?

    /// Creates a backoff with no failure yet.
    package init(firstDelay: Double = 0.01, fixedRateSeconds: Double = 1, longestDelay: Double = 5) {
        self.firstDelay = max(0, firstDelay)
        self.fixedRateSeconds = max(0, fixedRateSeconds)
        self.longestDelay = max(0, longestDelay)
    }

    /// Records a failed attempt.
    /// - Returns: How long to wait before the next attempt, in seconds.
    package mutating func delayAfterFailure() -> Double {
        let delay =
            if let lastDelay, waited >= fixedRateSeconds { min(lastDelay * 2, longestDelay) } else { firstDelay }
        waited += delay
        lastDelay = delay
        return delay
    }

    /// Records a successful attempt: the next failure starts the sequence again.
    package mutating func reset() {
        waited = 0
        lastDelay = nil
    }
}
