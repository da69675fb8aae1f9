import Foundation
import StoreKitCore

/// A transport a test can hold up (every write waits for `release()`) or break (every call throws while `failing`).
final class ControlledTransport: SessionTransport, @unchecked Sendable {
    struct Broken: Error, CustomStringConvertible {
        var description: String { "the test broke the transport" }
    }

    private let lock = NSLock()
    private let memory = MemoryTransport()
    private var isHeld = false
    private var isFailing = false
    private let writeEntered = DispatchSemaphore(value: 0)
    private let gate = DispatchSemaphore(value: 0)

    /// Makes the next writes wait until `release()`.
    func hold() { lock.withLock { isHeld = true } }

    /// Lets held writes through, now and later.
    func release() {
        lock.withLock { isHeld = false }
        gate.signal()
    }

    /// Makes every call throw (true) or succeed (false).
    func setFailing(_ failing: Bool) { lock.withLock { isFailing = failing } }

    /// Waits until a write is being held; false after a generous timeout.
    func waitUntilWriteIsHeld() -> Bool { writeEntered.wait(timeout: .now() + 30) == .success }

    func start(header: [UInt8]) throws -> Int? {
        if lock.withLock({ isFailing }) { throw Broken() }
        return try memory.start(header: header)
    }

    func write(_ lines: [UInt8]) throws {
        if lock.withLock({ isHeld }) {
            writeEntered.signal()
            gate.wait()
        }
        if lock.withLock({ isFailing }) { throw Broken() }
        try memory.write(lines)
    }

    func close() throws { try memory.close() }

    func session() throws -> Session { try memory.session() }
}
