import Foundation

/// The effect tasks a store has started, so tests can wait until all of them (and the ones they cause) finish.
final class EffectTasks: @unchecked Sendable {
    private let lock = NSLock()
    private var running: [UInt64: Task<Void, Never>] = [:]
    private var nextID: UInt64 = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Starts `work` in a task and tracks it until it ends.
    func start(_ work: @escaping @Sendable () async -> Void) {
        lock.lock()
        let id = nextID
        nextID += 1
        let task = Task { [self] in
            await work()
            finish(id)
        }
        running[id] = task
        lock.unlock()
    }

    private func finish(_ id: UInt64) {
        lock.lock()
        running[id] = nil
        let resumed = running.isEmpty ? waiters : []
        if running.isEmpty { waiters = [] }
        lock.unlock()
        for waiter in resumed { waiter.resume() }
    }

    /// Returns once no effect task is running.
    func waitUntilIdle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            lock.lock()
            if running.isEmpty {
                lock.unlock()
                continuation.resume()
            } else {
                waiters.append(continuation)
                lock.unlock()
            }
        }
    }

    /// Cancels every running effect task.
    func cancelAll() {
        let tasks = lock.withLock { Array(running.values) }
        for task in tasks { task.cancel() }
    }
}
