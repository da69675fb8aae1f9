import Foundation
import StoreKitReplay

/// A thread-safe, append-only list of what a store applied, that tests can wait on.
///
/// Waits are conditions with a timeout, never sleeps: ``wait(forCount:timeout:)`` returns as soon as enough
/// entries arrived and throws a ``StoreTestingError`` naming what did arrive when the time is up.
public final class ActionLog<Entry: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var entries: [Entry] = []

    /// Creates an empty log.
    public init() {}

    /// Every entry so far, in order.
    public var all: [Entry] { condition.withLock { entries } }

    /// How many entries there are.
    public var count: Int { condition.withLock { entries.count } }

    /// Appends an entry and wakes waiters.
    public func append(_ entry: Entry) {
        condition.withLock {
            entries.append(entry)
            condition.broadcast()
        }
    }

    /// Removes every entry.
    public func removeAll() {
        condition.withLock { entries.removeAll() }
    }

    /// Waits until the log holds at least `count` entries and returns the first `count`.
    /// - Throws: ``StoreTestingError/timedOut(_:)`` after `timeout`, saying how many arrived.
    public func wait(forCount count: Int, timeout: Duration = .seconds(5)) async throws -> [Entry] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let current = all
            if current.count >= count { return Array(current.prefix(count)) }
            if ContinuousClock.now >= deadline {
                throw StoreTestingError.timedOut(
                    "waited \(timeout) for \(count) entr\(count == 1 ? "y" : "ies"), but only \(current.count) arrived: \(current)")
            }
            // Poll politely without blocking the cooperative pool.
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    /// The entries as an async sequence: each `next()` waits for the next entry at most `timeout` and throws
    /// ``StoreTestingError/timedOut(_:)`` instead of hanging.
    public func values(timeout: Duration = .seconds(5)) -> Values {
        Values(log: self, timeout: timeout)
    }

    /// The entries of a log as an async sequence with a timeout per element.
    public struct Values: AsyncSequence, Sendable {
        let log: ActionLog
        let timeout: Duration

        /// Creates the iterator, starting at the first entry.
        public func makeAsyncIterator() -> Iterator {
            Iterator(log: log, timeout: timeout)
        }

        /// Iterates the log's entries in order.
        public struct Iterator: AsyncIteratorProtocol {
            let log: ActionLog
            let timeout: Duration
            var index = 0

            /// The next entry; waits for it at most the timeout.
            public mutating func next() async throws -> Entry? {
                let entries = try await log.wait(forCount: index + 1, timeout: timeout)
                index += 1
                return entries[index - 1]
            }
        }
    }
}

/// A test helper's failure that is not a state mismatch.
public enum StoreTestingError: Error, CustomStringConvertible {
    /// Something a test waited for did not happen in time.
    case timedOut(String)

    /// The explanation.
    public var description: String {
        switch self {
        case .timedOut(let message): "timed out: \(message)"
        }
    }
}
