import Foundation

/// The cancellable work effects run under ids, in one store, and which of it is cancelled.
///
/// Decisions follow dispatch order (the sequence number of the action whose effect runs the work), not the order
/// effect tasks happen to run in, so "start, then stop" sent back to back stops the work even when the stop's effect
/// runs first.
package final class EffectCancellations: @unchecked Sendable {
    private struct Running {
        let startedBy: Int
        let task: Task<Void, Never>
    }

    private struct Group {
        /// Work started by an action up to this sequence number is cancelled before it starts.
        var cancelledThrough = Int.min
        var running: [UInt64: Running] = [:]
    }

    private let lock = NSLock()
    private var groups: [AnyHashable: Group] = [:]
    private var nextToken: UInt64 = 0
    /// Starts the task that runs one cancellable work.
    private let startTask: @Sendable (_ work: @escaping @Sendable () async -> Void) -> Task<Void, Never>

    /// Cancellable work whose tasks `startTask` starts (replay starts them on its own executor); by default a plain
    /// `Task`.
    package init(startTask: @escaping @Sendable (_ work: @escaping @Sendable () async -> Void) -> Task<Void, Never> = { work in Task { await work() } }) {
        self.startTask = startTask
    }

    /// Runs `work` under `id` for the action `sequence` and returns when it has ended (or was cancelled first).
    func run(
        _ id: AnyHashable, startedBy sequence: Int, cancellingInFlight: Bool,
        _ work: @escaping @Sendable () async throws -> Void
    ) async {
        guard let (token, task) = start(id, startedBy: sequence, cancellingInFlight: cancellingInFlight, work) else {
            return
        }
        await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
        lock.withLock { _ = groups[id]?.running.removeValue(forKey: token) }
    }

    /// Starts `work` under `id` unless it is cancelled already; cancels the work it supersedes.
    private func start(
        _ id: AnyHashable, startedBy sequence: Int, cancellingInFlight: Bool,
        _ work: @escaping @Sendable () async throws -> Void
    ) -> (token: UInt64, task: Task<Void, Never>)? {
        lock.lock()
        var group = groups[id, default: Group()]
        let isSuperseded = cancellingInFlight && group.running.values.contains { $0.startedBy > sequence }
        if sequence <= group.cancelledThrough || isSuperseded {
            lock.unlock()
            return nil
        }
        var inFlight: [Running] = []
        if cancellingInFlight {
            inFlight = Array(group.running.values)
            group.running = [:]
            group.cancelledThrough = max(group.cancelledThrough, sequence - 1)
        }
        nextToken += 1
        let token = nextToken
        let task = startTask {
            do {
                try await work()
            } catch {
                // Cancellation is the normal end of cancellable work; other errors end it too (documented).
            }
        }
        group.running[token] = Running(startedBy: sequence, task: task)
        groups[id] = group
        lock.unlock()
        for superseded in inFlight { superseded.task.cancel() }
        return (token, task)
    }

    /// Cancels the work under `id` that actions up to `runningThrough` started, and keeps work that actions up to
    /// `startingThrough` have yet to start from starting.
    func cancel(_ id: AnyHashable, runningThrough: Int, startingThrough: Int) {
        let cancelled = lock.withLock { () -> [Running] in
            var group = groups[id, default: Group()]
            group.cancelledThrough = max(group.cancelledThrough, startingThrough)
            let cancelled = group.running.filter { $0.value.startedBy <= runningThrough }
            for token in cancelled.keys { group.running[token] = nil }
            groups[id] = group
            return Array(cancelled.values)
        }
        for running in cancelled { running.task.cancel() }
    }
}
