import Foundation
import StoreKitSystem

/// Runs `body` on a thread of its own and waits for it up to 60 s, so that what it does to its thread (its CPUs, its
/// priority) touches no other test's thread.
/// - Returns: What `body` returned; `nil` when the thread had not finished by then.
/// - Throws: What `body` threw.
public func onANewThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) throws -> T? {
    let result = Locked<Result<T, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Thread {
        result.withLock { $0 = Result(catching: body) }
        done.signal()
    }.start()
    guard done.wait(timeout: .now() + 60) == .success else { return nil }
    return try result.withLock { $0 }?.get()
}
