import Foundation
import StoreKitSystem

/// The one thread replayed effects run on: every job of their tasks runs here, one at a time, in the order it was
/// enqueued, so a rerun is the same on every replay and replay can tell when the effects have nothing left to do.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
final class ReplayExecutor: TaskExecutor, @unchecked Sendable {
    /// Why the effects have nothing left to do for now.
    enum Quiet {
        /// No job is queued or running.
        case idle
        /// The running job waits for an input that replay has not read yet.
        case waitingForInput
    }

    /// Guards the state below. The hot paths wake waiters after letting go of it: a thread woken on the CPU the
    /// waker runs on (``EffectReplayCPU``) would otherwise run at once, find it still held and sleep again.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var nextJob = 0
    private var isRunningJob = false
    private var jobsWaitingForInput = 0
    private var isStopping = false
    /// Whether the thread waits for a job, and how many callers of ``waitForWork(seconds:)`` do: an enqueued job
    /// wakes them, and no one else. Waking the replay on every job instead made each job cost two context switches.
    private var runnerIsWaiting = false
    private var workWaiters = 0

    /// Starts the executor's thread, on `cpu` when the replay has one for its threads.
    init(cpu: EffectReplayCPU?) {
        let thread = Thread { [self] in
            cpu?.holdForEffectsThread()
            runJobs()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let wake = condition.withLock {
            jobs.append(job)
            return runnerIsWaiting || workWaiters > 0
        }
        if wake { condition.broadcast() }
    }

    private func runJobs() {
        try? Syscall.nameCurrentThread("replay effects")
        while true {
            condition.lock()
            while nextJob == jobs.count && !isStopping {
                runnerIsWaiting = true
                condition.wait()
                runnerIsWaiting = false
            }
            if nextJob == jobs.count {
                condition.unlock()
                return
            }
            let job = jobs[nextJob]
            nextJob += 1
            if nextJob == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                nextJob = 0
            }
            isRunningJob = true
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
            let isQuiet = condition.withLock {
                isRunningJob = false
                return nextJob == jobs.count
            }
            // Quiet now: wake the replay waiting for that, and only then.
            if isQuiet { condition.broadcast() }
        }
    }

    /// Waits until no job is queued or running, or the running job waits for an input.
    func waitUntilQuiet() -> Quiet {
        condition.withLock {
            while jobsWaitingForInput == 0 && (isRunningJob || nextJob < jobs.count) { condition.wait() }
            return jobsWaitingForInput > 0 ? .waitingForInput : .idle
        }
    }

    /// Waits, at most `seconds`, until no job is queued or running, or the running job waits for an input.
    /// - Returns: Why the effects are quiet; `nil` when they were still busy at the deadline.
    func waitUntilQuiet(seconds: Double) -> Quiet? {
        condition.withLock {
            let deadline = Date(timeIntervalSinceNow: seconds)
            while jobsWaitingForInput == 0 && (isRunningJob || nextJob < jobs.count) {
                if !condition.wait(until: deadline) { break }
            }
            if jobsWaitingForInput > 0 { return .waitingForInput }
            return isRunningJob || nextJob < jobs.count ? nil : .idle
        }
    }

    /// Waits up to `seconds` for a job to be enqueued.
    /// - Returns: Whether one was.
    func waitForWork(seconds: Double) -> Bool {
        condition.withLock {
            workWaiters += 1
            defer { workWaiters -= 1 }
            let deadline = Date(timeIntervalSinceNow: seconds)
            while !isRunningJob && nextJob == jobs.count {
                if !condition.wait(until: deadline) { return isRunningJob || nextJob < jobs.count }
            }
            return true
        }
    }

    /// Runs `wait`, which blocks the running job until ``inputArrived(_:)`` wakes it, telling ``waitUntilQuiet()``
    /// meanwhile that the job waits for an input.
    func whileWaitingForInput<T>(_ wait: () -> T) -> T {
        condition.withLock {
            jobsWaitingForInput += 1
            condition.broadcast()
        }
        return wait()
    }

    /// Wakes a job blocked in ``whileWaitingForInput(_:)`` with `wake`, counting it as running again first, so a
    /// ``waitUntilQuiet()`` right after waits for it.
    func inputArrived(_ wake: () -> Void) {
        condition.withLock { jobsWaitingForInput -= 1 }
        wake()
    }

    /// Ends the thread once the jobs queued have run.
    func stop() {
        condition.withLock {
            isStopping = true
            condition.broadcast()
        }
    }
}
