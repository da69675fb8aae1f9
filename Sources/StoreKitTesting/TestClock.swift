import Foundation
import StoreKitReplay

/// A clock whose time moves only when a test advances it, so effects that sleep, debounce or time out are tested
/// instantly and deterministically (what RxSwift's `TestScheduler` gives).
///
/// Give effects an `any Clock<Duration>`; the app passes `ContinuousClock()`, the test a `TestClock`:
/// ```swift
/// let clock = TestClock()
/// let store = MockStore<Ticker.State, Ticker.Action>(initialState: .init(), clock: clock)
/// Task { await Ticker.run(store: store, clock: clock) }
/// await clock.advance(by: .milliseconds(300))
/// let first = try await store.dispatched.wait(forCount: 1)
/// #expect(first[0].time == .milliseconds(300))
/// ```
/// Advancing wakes sleepers in deadline order, each at its own deadline. A sleeper that wakes and sleeps again
/// before the test advances further gets its next deadline honoured too; wait for what the woken code does (for
/// example with ``ActionLog/wait(forCount:timeout:)``) before advancing again when the exact time matters.
public final class TestClock: Clock, @unchecked Sendable {
    /// A point in virtual time: the duration since the clock started.
    public struct Instant: InstantProtocol, Sendable {
        /// Time since the clock started.
        public var offset: Duration

        /// Creates an instant at `offset`.
        public init(offset: Duration) {
            self.offset = offset
        }

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }

        /// The duration from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }

        /// Earlier instants sort first.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let id: UInt64
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private let lock = NSLock()
    private var current = Instant(offset: .zero)
    private var sleepers: [Sleeper] = []
    private var nextID: UInt64 = 0

    /// Creates a clock at time zero.
    public init() {}

    /// The current virtual time.
    public var now: Instant { lock.withLock { current } }

    /// The virtual time since the clock started.
    public var elapsed: Duration { now.offset }

    /// The clock's resolution: exact.
    public var minimumResolution: Duration { .zero }

    /// How many tasks are asleep on this clock.
    public var sleeperCount: Int { lock.withLock { sleepers.count } }

    /// Suspends until the test advances the clock to `deadline`; returns at once if it is already there.
    /// - Throws: `CancellationError` when the sleeping task is cancelled.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = lock.withLock {
            nextID += 1
            return nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                lock.lock()
                if deadline <= current || Task.isCancelled {
                    lock.unlock()
                    if Task.isCancelled { continuation.resume(throwing: CancellationError()) } else { continuation.resume() }
                    return
                }
                sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                lock.unlock()
            }
        } onCancel: {
            let cancelled = lock.withLock { () -> Sleeper? in
                guard let index = sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return sleepers.remove(at: index)
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward by `duration`, waking each sleeper at its deadline, in order.
    public func advance(by duration: Duration) async {
        let target = now.advanced(by: duration)
        while true {
            let due = lock.withLock { () -> [Sleeper] in
                guard let earliest = sleepers.filter({ $0.deadline <= target }).map(\.deadline).min() else {
                    // In the same critical section that found no one due: a task that goes to sleep from now on
                    // sees the new time and returns at once, instead of sleeping past a deadline already reached.
                    current = max(current, target)
                    return []
                }
                current = earliest
                let woken = sleepers.filter { $0.deadline == earliest }
                sleepers.removeAll { $0.deadline == earliest }
                return woken
            }
            if due.isEmpty { break }
            for sleeper in due { sleeper.continuation.resume() }
            // Give the woken tasks a chance to run (and perhaps sleep again) before time moves on.
            for _ in 0..<20 { await Task.yield() }
        }
    }
}
