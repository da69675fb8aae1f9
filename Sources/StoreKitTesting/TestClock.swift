import Foundation
import StoreKitReplay

/// A clock whose time moves only when a test advances it, so effects that sleep, debounce or time out are tested
/// instantly and deterministically (what RxSwift's `TestScheduler` gives).
///
/// Give effects an `any Clock<Duration>`; the app passes `ContinuousClock()`, the test a `TestClock`. Advance, then
/// assert, in one step each:
/// ```swift
/// let clock = TestClock()
/// let store = Store(initialState: Timer.State(), reducer: Timer.reducer, effects: [Timer.ticking(on: clock)])
/// store.dispatch(.startTapped)
/// await clock.advance(by: .seconds(1))
/// #expect(store.state.ticks == 1)
/// await clock.advance(by: .seconds(2))
/// #expect(store.state.ticks == 3)
/// ```
///
/// What ``advance(by:)`` does: it first lets work that is already running reach its next sleep (an effect task the
/// store has just started, say); then it wakes the sleepers in deadline order, setting the time to each deadline in
/// turn, and after each wake it lets the woken tasks run until they are quiet again before time moves on. So a timer
/// that sleeps, sends, and sleeps again stamps each action at its own deadline, and the test can assert right after
/// `advance` returns.
///
/// How it knows the work is quiet, honestly stated: Swift has no public way to ask whether a task has finished
/// running for now, so part of this is exact and part is a timing heuristic.
/// - Exact: a sleeper this clock woke is tracked until its `sleep` has returned to its code, and its task until it
///   sleeps on this clock again, as a timer's loop does.
/// - Heuristic: a woken task that does not sleep again (a one-shot: sleep, act, end) is taken to have ended after
///   ``wokenGrace`` without activity, the only case that costs that much per advance. Work the clock never saw,
///   such as a task just started or a hand-off to another task (an `AsyncStream`, a dispatch into a store), is
///   waited for by yielding (`Task.yield()`), then napping in real time, until the clock has seen no activity on
///   itself (no sleep begun, ended or cancelled) for ``quietYields`` checks and ``quietTime``, or, when the machine
///   is that busy, four times the longest a woken sleeper took to get back to its code or `advance` itself waited
///   to run again after a yield.
///
/// The stress tests run 200 advance-then-assert rounds each (a store's timer effect, a two-task hand-off into a
/// `MockStore`, a task started right before the advance) and pass under load and under ThreadSanitizer; a machine
/// that stalls a hand-off longer than the quiet window could still let an assertion run early. Work that waits on
/// something other than this clock (real I/O, another clock) is not waited for: wait for its result (for example
/// with ``ActionLog/wait(forCount:timeout:)``) instead of assuming it.
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
        /// The sleeping task (its identity's hash), to see when a task this clock woke goes back to sleep.
        let task: Int?
        /// Resumed with `true` when an advance wakes it.
        let continuation: CheckedContinuation<Bool, any Error>
    }

    private let lock = NSLock()
    private var current = Instant(offset: .zero)
    private var sleepers: [Sleeper] = []
    private var nextID: UInt64 = 0
    /// Sleepers an advance woke whose `sleep` has not yet returned to their code.
    private var wokenStillReturning = 0
    /// Bumped by everything that happens on the clock: a sleep begun, ended or cancelled.
    private var activity: UInt64 = 0
    /// Tasks the current advance woke that have not slept on this clock again (they may have ended instead).
    private var wokenNotAsleepAgain: Set<Int> = []
    /// When the last sleepers were woken, and the longest a woken sleeper then took to get back to its code: how
    /// busy the machine is, so that a slow machine gets a longer quiet window.
    private var lastWake = ContinuousClock.now
    private var slowestReturn = Duration.zero

    /// How many consecutive yields without activity on the clock count as quiet.
    public let quietYields: Int
    /// How much real time without activity on the clock counts as quiet (together with ``quietYields``).
    public let quietTime: Duration
    /// How long a task this clock woke may stay away from its next sleep before the clock takes it to have ended.
    public let wokenGrace: Duration

    /// Creates a clock at time zero.
    /// - Parameters:
    ///   - quietYields: Consecutive yields without activity that count as quiet.
    ///   - quietTime: Real time without activity that counts as quiet.
    ///   - wokenGrace: Real time without activity after which a woken task that has not slept again counts as
    ///     ended; only one-shot sleepers (sleep, act, end) cost this much per advance.
    public init(
        quietYields: Int = 50, quietTime: Duration = .milliseconds(3), wokenGrace: Duration = .milliseconds(20)
    ) {
        self.quietYields = quietYields
        self.quietTime = quietTime
        self.wokenGrace = wokenGrace
    }

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
        let task = withUnsafeCurrentTask { $0?.hashValue }
        let id = lock.withLock {
            nextID += 1
            activity += 1
            if let task { wokenNotAsleepAgain.remove(task) }
            return nextID
        }
        let wokenByAdvance = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Bool, any Error>) in
                lock.lock()
                if deadline <= current || Task.isCancelled {
                    lock.unlock()
                    if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                    } else {
                        continuation.resume(returning: false)
                    }
                    return
                }
                sleepers.append(Sleeper(id: id, deadline: deadline, task: task, continuation: continuation))
                lock.unlock()
            }
        } onCancel: {
            let cancelled = lock.withLock { () -> Sleeper? in
                guard let index = sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                activity += 1
                return sleepers.remove(at: index)
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
        lock.withLock {
            activity += 1
            if wokenByAdvance {
                wokenStillReturning -= 1
                slowestReturn = max(slowestReturn, ContinuousClock.now - lastWake)
            }
        }
        // A task cancelled while an advance was waking it (its cancellation handler too late to find it asleep)
        // does not go on as if its time had come: a timer stopped just before an advance sends no more ticks.
        try Task.checkCancellation()
    }

    /// Moves time forward by `duration`: lets running work reach its sleeps, then wakes each sleeper due by then at
    /// its own deadline, in order, and lets what it wakes run until quiet before time moves on. Returns when the
    /// clock is at `now + duration` and quiet.
    public func advance(by duration: Duration) async {
        await advance(to: now.advanced(by: duration))
    }

    /// Moves time forward to `deadline` as ``advance(by:)`` does; an instant in the past leaves the time as it is.
    public func advance(to deadline: Instant) async {
        await settle()
        while true {
            let due = lock.withLock { () -> [Sleeper] in
                guard let earliest = sleepers.filter({ $0.deadline <= deadline }).map(\.deadline).min() else {
                    // In the same critical section that found no one due: a task that goes to sleep from now on
                    // sees the new time and returns at once, instead of sleeping past a deadline already reached.
                    current = max(current, deadline)
                    return []
                }
                current = earliest
                let woken = sleepers.filter { $0.deadline == earliest }
                sleepers.removeAll { $0.deadline == earliest }
                wokenStillReturning += woken.count
                wokenNotAsleepAgain.formUnion(woken.compactMap(\.task))
                lastWake = ContinuousClock.now
                activity += 1
                return woken
            }
            if due.isEmpty { break }
            for sleeper in due { sleeper.continuation.resume(returning: true) }
            await settle()
        }
    }

    /// How long ``settle()`` naps between checks once the quick yields are done.
    private static let nap = Duration.microseconds(200)

    /// Yields until the clock is quiet: every woken sleeper has returned to its code, each task woken has slept
    /// again or stayed away ``wokenGrace``, and nothing happened on the clock for ``quietYields`` consecutive yields
    /// and ``quietTime`` of real time, or, when longer (a busy machine), four times the longest a woken sleeper took
    /// to get back to its code or this task waited past a yield or nap while the clock was quiet.
    private func settle() async {
        var seen = lock.withLock { activity }
        var quietSince = ContinuousClock.now
        var quietCount = 0
        // The longest this task itself waited past what it asked for, to yield or nap, since the clock last saw
        // activity: when the machine is that busy, a task handed work (an `AsyncStream` consumer, say) may wait as
        // long before it runs.
        var slowestStep = Duration.zero
        while true {
            let stepStart = ContinuousClock.now
            var asked = Duration.zero
            if quietCount < quietYields {
                await Task.yield()
            } else {
                // Past the quick hand-offs, give the processor away rather than spin: on a busy machine the work
                // being waited for may need this very core.
                asked = Self.nap
                do {
                    try await Task.sleep(for: asked)
                } catch {
                    break  // The advancing task was cancelled: stop waiting.
                }
            }
            slowestStep = max(slowestStep, ContinuousClock.now - stepStart - asked)
            let (latest, returning, awaited, slowest) = lock.withLock {
                (activity, wokenStillReturning, !wokenNotAsleepAgain.isEmpty, slowestReturn)
            }
            if latest != seen || returning > 0 {
                seen = latest
                quietSince = ContinuousClock.now
                quietCount = 0
                slowestStep = .zero
                continue
            }
            quietCount += 1
            let quietFor = ContinuousClock.now - quietSince
            let window = max(awaited ? wokenGrace : quietTime, slowest * 4, slowestStep * 4)
            if quietCount >= quietYields && quietFor >= window { break }
        }
        lock.withLock {
            wokenNotAsleepAgain = []
            slowestReturn = .zero
        }
    }
}
