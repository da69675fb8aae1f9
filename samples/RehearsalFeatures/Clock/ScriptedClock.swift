import Foundation

/// A clock whose time moves only when a script (or a test) advances it, and which tells when someone sleeps on it.
///
/// The sample app's scripted journey drives the rehearsal timer with it, so a recording takes milliseconds and its
/// ticks land between the same user actions every time:
/// ```swift
/// let calls = clock.sleepCallCount
/// clock.advance(by: .seconds(1))                 // wakes the timer, which sends a tick
/// await clock.waitForSleepCalls(calls + 1)       // the timer has sent it and sleeps again
/// ```
public final class ScriptedClock: Clock, @unchecked Sendable {
    /// A point in scripted time: the duration since the clock started.
    public struct Instant: InstantProtocol, Sendable {
        /// Time since the clock started.
        public var offset: Duration

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }

        /// The duration from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }

        /// Earlier instants sort first.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct CallWaiter {
        let count: Int
        let continuation: CheckedContinuation<Void, Never>
    }

    private let lock = NSLock()
    private var current = Instant(offset: .zero)
    private var sleepers: [UInt64: Sleeper] = [:]
    private var calls = 0
    private var callWaiters: [CallWaiter] = []

    /// Creates a clock at time zero.
    public init() {}

    /// The current scripted time.
    public var now: Instant { lock.withLock { current } }

    /// The clock's resolution: exact.
    public var minimumResolution: Duration { .zero }

    /// How many times anyone has called ``sleep(until:tolerance:)``, including calls that were cancelled.
    public var sleepCallCount: Int { lock.withLock { calls } }

    /// Suspends until the clock is advanced to `deadline`.
    /// - Throws: `CancellationError` when the sleeping task is cancelled (at once if it already is).
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let (token, reached) = lock.withLock { () -> (UInt64, [CallWaiter]) in
            calls += 1
            let reached = callWaiters.filter { $0.count <= calls }
            callWaiters.removeAll { $0.count <= calls }
            return (UInt64(calls), reached)
        }
        for waiter in reached { waiter.continuation.resume() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                lock.lock()
                if Task.isCancelled {
                    lock.unlock()
                    continuation.resume(throwing: CancellationError())
                } else if deadline <= current {
                    lock.unlock()
                    continuation.resume()
                } else {
                    sleepers[token] = Sleeper(deadline: deadline, continuation: continuation)
                    lock.unlock()
                }
            }
        } onCancel: {
            let cancelled = lock.withLock { sleepers.removeValue(forKey: token) }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward by `duration` and wakes every sleeper whose deadline it reached, earliest first.
    public func advance(by duration: Duration) {
        let woken = lock.withLock { () -> [Sleeper] in
            current = current.advanced(by: duration)
            let due = sleepers.filter { $0.value.deadline <= current }.sorted { $0.value.deadline < $1.value.deadline }
            for (token, _) in due { sleepers[token] = nil }
            return due.map(\.value)
        }
        for sleeper in woken { sleeper.continuation.resume() }
    }

    /// Returns once ``sleepCallCount`` has reached `count`.
    public func waitForSleepCalls(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            lock.lock()
            if calls >= count {
                lock.unlock()
                continuation.resume()
            } else {
                callWaiters.append(CallWaiter(count: count, continuation: continuation))
                lock.unlock()
            }
        }
    }
}
