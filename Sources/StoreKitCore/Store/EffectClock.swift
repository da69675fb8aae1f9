import StoreKitJSON
import StoreKitSystem

/// The clock a replayable effect reads and sleeps on: the store's clock while the app runs, the recorded time in
/// replay. Each reading of ``now`` and each sleep is an input of the run, recorded like a call.
///
/// ```swift
/// try await context.clock.sleep(for: .seconds(1))
/// ```
/// Its instants count from the store's creation. The store's clock is `ContinuousClock()` unless the app passes
/// another (`Store(…, clock:)`), such as a test clock.
public struct EffectClock: Clock, Sendable {
    /// A point in time: how long after the store's creation.
    public struct Instant: InstantProtocol, Codable, Hashable, Sendable {
        /// How long after the store's creation.
        public var offset: Duration

        /// The instant `offset` after the store's creation.
        public init(offset: Duration) {
            self.offset = offset
        }

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }

        /// How long from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }

        /// Whether `left` comes before `right`.
        public static func < (left: Instant, right: Instant) -> Bool { left.offset < right.offset }
    }

    /// The store's own clock, with its instant at the store's creation.
    package struct Base: Sendable {
        private let elapsed: @Sendable () -> Duration
        private let sleepUntil: @Sendable (Duration) async throws -> Void
        private let storeCreatedAt: UInt64

        /// `clock`, counted from now, for a store created at `storeCreatedAt` (monotonic nanoseconds).
        package init<C: Clock<Duration>>(_ clock: C, storeCreatedAt: UInt64 = MonotonicClock.nanoseconds()) {
            self.storeCreatedAt = storeCreatedAt
            let start = clock.now
            elapsed = { start.duration(to: clock.now) }
            sleepUntil = { offset in try await clock.sleep(until: start.advanced(by: offset), tolerance: nil) }
        }

        /// How long since the store's creation.
        package var now: Duration { elapsed() }

        /// Sleeps until `offset` after the store's creation.
        package func sleep(until offset: Duration) async throws { try await sleepUntil(offset) }

        /// Monotonic nanoseconds since the store's creation, as the store stamps its actions (whatever clock the
        /// effects sleep on).
        package func storeUptimeNanoseconds() -> UInt64 {
            MonotonicClock.nanoseconds() &- storeCreatedAt
        }
    }

    let run: EffectRun

    /// The current instant, recorded as a `$clock.now` input.
    public var now: Instant {
        Instant(offset: .nanoseconds(run.takeNow()))
    }

    /// One nanosecond.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Sleeps until `deadline`, recorded as a `$clock.sleep` input; throws `CancellationError` when cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try await run.takeSleep(input: ["until": .integer(deadline.offset.nanoseconds)]) { base in
            try await base.sleep(until: deadline.offset)
        }
    }

    /// Sleeps for `duration`, recorded as one `$clock.sleep` input; throws `CancellationError` when cancelled first.
    public func sleep(for duration: Duration, tolerance: Duration? = nil) async throws {
        try await run.takeSleep(input: ["for": .integer(duration.nanoseconds)]) { base in
            try await base.sleep(until: base.now + duration)
        }
    }
}

extension Duration {
    /// The duration in whole nanoseconds, clamped to `Int64`.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return seconds < 0 ? .min : .max }
        return whole.addingReportingOverflow(attoseconds / 1_000_000_000).overflow ? .max : whole + attoseconds / 1_000_000_000
    }
}
