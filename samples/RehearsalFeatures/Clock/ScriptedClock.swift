import Foundation

/// A clock whose time moves only when a script (or a test) advances it, and which tells when someone sleeps on it.
///
/// The sample app's scripted journey gives it to the rehearsal store (`Store(…, clock: clock)`), whose timer sleeps on
/// it, so a recording takes milliseconds and its ticks land between the same user actions every time:
/// ```swift
/// let calls = clock.sleepCallCount
/// clock.advance(by: .seconds(1))                     // wakes the timer, which sends a tick
/// await clock.waitUntil(sleepCalls: calls + 1)       // the timer has sent it and sleeps again
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

    private struct Waiter {
        let id: UInt64
        let sleepCalls: Int
        let sleepers: Int?
        let continuation: CheckedContinuation<Void, Never>
    }

    private let lock = NSLock()
    private var current = Instant(offset: .zero)
    private var sleepers: [UInt64: Sleeper] = [:]
    private var calls = 0
    private var waiters: [Waiter] = []
    private var nextWaiterID: UInt64 = 0

    /// Creates a clock at time zero.
    public init() {}

    /// The current scripted time.
    public var now: Instant { lock.withLock { current } }

    /// The clock's resolution: exact.
    public var minimumResolution: Duration { .zero }

    /// How many times anyone has called ``sleep(until:tolerance:)``, including calls that were cancelled.
    public var sleepCallCount: Int { lock.withLock { calls } }

    /// How many tasks are asleep on the clock now.
    public var sleeperCount: Int { lock.withLock { sleepers.count } }

    /// Suspends until the clock is advanced to `deadline`.
    /// - Throws: `CancellationError` when the sleeping task is cancelled (at once if it already is).
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let token = lock.withLock { () -> UInt64 in
            calls += 1
            return UInt64(calls)
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                lock.lock()
                if Task.isCancelled {
                    let satisfied = takeSatisfiedWaiters()
                    lock.unlock()
                    continuation.resume(throwing: CancellationError())
                    for waiter in satisfied { waiter.continuation.resume() }
                } else if deadline <= current {
                    let satisfied = takeSatisfiedWaiters()
                    lock.unlock()
                    continuation.resume()
                    for waiter in satisfied { waiter.continuation.resume() }
                } else {
                    sleepers[token] = Sleeper(deadline: deadline, continuation: continuation)
                    let satisfied = takeSatisfiedWaiters()
                    lock.unlock()
                    for waiter in satisfied { waiter.continuation.resume() }
                }
            }
        } onCancel: {
            let (cancelled, satisfied) = lock.withLock { (sleepers.removeValue(forKey: token), takeSatisfiedWaiters()) }
            cancelled?.continuation.resume(throwing: CancellationError())
            for waiter in satisfied { waiter.continuation.resume() }
        }
    }

    /// Moves time forward by `duration` and wakes every sleeper whose deadline it reached, earliest first.
    public func advance(by duration: Duration) {
        let (woken, satisfied) = lock.withLock { () -> ([Sleeper], [Waiter]) in
            current = current.advanced(by: duration)
            let due = sleepers.filter { $0.value.deadline <= current }.sorted { $0.value.deadline < $1.value.deadline }
            for (token, _) in due { sleepers[token] = nil }
            return (due.map(\.value), takeSatisfiedWaiters())
        }
        for sleeper in woken { sleeper.continuation.resume() }
        for waiter in satisfied { waiter.continuation.resume() }
    }

    /// Returns once ``sleepCallCount`` has reached `sleepCalls` and, when `sleepers` is given, exactly that many
    /// tasks are asleep (so work that a newer sleeper superseded has been cancelled, not just asked to stop); or
    /// as soon as the waiting task is cancelled.
    public func waitUntil(sleepCalls: Int, sleepers: Int? = nil) async {
        let id = lock.withLock { () -> UInt64 in
            nextWaiterID += 1
            return nextWaiterID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                lock.lock()
                if Task.isCancelled {
                    lock.unlock()
                    continuation.resume()
                    return
                }
                waiters.append(Waiter(id: id, sleepCalls: sleepCalls, sleepers: sleepers, continuation: continuation))
                let satisfied = takeSatisfiedWaiters()
                lock.unlock()
                for waiter in satisfied { waiter.continuation.resume() }
            }
        } onCancel: {
            let cancelled = lock.withLock { () -> Waiter? in
                guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return waiters.remove(at: index)
            }
            cancelled?.continuation.resume()
        }
    }

    /// Removes and returns the waiters whose condition holds; call with the lock held.
    private func takeSatisfiedWaiters() -> [Waiter] {
        let isSatisfied = { (waiter: Waiter) in
            self.calls >= waiter.sleepCalls && (waiter.sleepers.map { $0 == self.sleepers.count } ?? true)
        }
        let satisfied = waiters.filter(isSatisfied)
        waiters.removeAll(where: isSatisfied)
        return satisfied
    }
}
