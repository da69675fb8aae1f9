import Foundation

/// A value guarded by a lock, for state shared between threads inside this package (and its tests).
///
/// Every read and write goes through ``withLock(_:)``, so the wrapped value is never touched by two threads at
/// once. The lock is an `NSLock` (not recursive): the body must not call back into the same `Locked`.
///
/// > Warning: Do not run user code (reducers, interceptors, projectors that may re-enter) inside `withLock` unless
/// > re-entry into the same instance is impossible; a re-entrant call deadlocks.
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// Creates a lock-guarded value.
    /// - Parameter value: The initial value.
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    /// - Parameter body: Reads or mutates the value in place.
    /// - Returns: What `body` returned.
    /// - Throws: What `body` threw; the lock is released either way.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

extension Locked where Value: Sendable {
    /// A snapshot of the current value.
    package var current: Value {
        withLock { $0 }
    }
}
