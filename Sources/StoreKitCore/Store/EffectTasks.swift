import Foundation

/// The effect tasks a store has started, so tests can wait until all of them (and the ones they cause) finish, and
/// name the ones that do not.
final class EffectTasks: @unchecked Sendable {
    /// One running task and what started it (described only when someone asks, off the dispatch path).
    private struct Entry {
        let task: Task<Void, Never>
        let effectName: String
        let sequence: Int
        let action: any Sendable
    }

    private let lock = NSLock()
    private var running: [UInt64: Entry] = [:]
    private var nextID: UInt64 = 0
    private var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]

    /// Starts `work` in a task and tracks it until it ends.
    /// - Parameters:
    ///   - effectName: The effect's name, for ``runningEffects``.
    ///   - sequence: The sequence number of the action the effect handles.
    ///   - action: That action.
    func start(
        effectName: String, sequence: Int, action: any Sendable, _ work: @escaping @Sendable () async -> Void
    ) {
        lock.withLock {
            let id = nextID
            nextID += 1
            let task = Task { [self] in
                await work()
                finish(id)
            }
            running[id] = Entry(task: task, effectName: effectName, sequence: sequence, action: action)
        }
    }

    private func finish(_ id: UInt64) {
        let resumed = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            running[id] = nil
            guard running.isEmpty else { return [] }
            defer { waiters = [:] }
            return Array(waiters.values)
        }
        for waiter in resumed { waiter.resume() }
    }

    /// The effects still running, in the order they started.
    var runningEffects: [RunningEffect] {
        let entries = lock.withLock { running.sorted { $0.key < $1.key }.map(\.value) }
        return entries.map { entry in
            RunningEffect(
                name: entry.effectName, sequence: entry.sequence, action: CompactDescription(entry.action).description)
        }
    }

    /// Returns once no effect task is running, or when the waiting task is cancelled.
    func waitUntilIdle() async {
        let waiterID = lock.withLock {
            nextID += 1
            return nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let isDone = lock.withLock {
                    if running.isEmpty || Task.isCancelled { return true }
                    waiters[waiterID] = continuation
                    return false
                }
                if isDone { continuation.resume() }
            }
        } onCancel: {
            lock.withLock { waiters.removeValue(forKey: waiterID) }?.resume()
        }
    }

    /// Waits until no effect task is running, at most `timeout`.
    /// - Returns: Whether every effect task ended in time.
    func waitUntilIdle(timeout: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { [self] in
                await waitUntilIdle()
                return lock.withLock { running.isEmpty }
            }
            group.addTask {
                do {
                    try await Task.sleep(for: timeout)
                } catch {
                    // The wait for idleness won, or the caller was cancelled: either way this clock has no say.
                }
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    /// Cancels every running effect task.
    func cancelAll() {
        let tasks = lock.withLock { running.values.map(\.task) }
        for task in tasks { task.cancel() }
    }
}
