import Foundation
import StoreKitCore
import StoreKitReplay

/// A transport a test can hold up (every write waits for `release()`) or break (every call throws while `failing`).
package final class ControlledTransport: SessionTransport, @unchecked Sendable {
    package init() {}

    package struct Broken: Error, CustomStringConvertible {
        package var description: String { "the test broke the transport" }
    }

    private let lock = NSLock()
    private let memory = MemoryTransport()
    private var isHeld = false
    private var isFailing = false
    private var writes: [Int] = []
    private let writeEntered = DispatchSemaphore(value: 0)
    private let gate = DispatchSemaphore(value: 0)

    /// Makes the next writes wait until `release()`.
    package func hold() { lock.withLock { isHeld = true } }

    /// Lets held writes through, now and later.
    package func release() {
        lock.withLock { isHeld = false }
        gate.signal()
    }

    /// Makes every call throw (true) or succeed (false).
    package func setFailing(_ failing: Bool) { lock.withLock { isFailing = failing } }

    /// Waits until a write is being held; false after a generous timeout.
    package func waitUntilWriteIsHeld() -> Bool { writeEntered.wait(timeout: .now() + 30) == .success }

    /// The byte count of each write that went through, in order.
    package var writeSizes: [Int] { lock.withLock { writes } }

    package func start(header: [UInt8]) throws -> Int? {
        if lock.withLock({ isFailing }) { throw Broken() }
        return try memory.start(header: header)
    }

    package func write(_ lines: [UInt8]) throws {
        if lock.withLock({ isHeld }) {
            writeEntered.signal()
            gate.wait()
        }
        if lock.withLock({ isFailing }) { throw Broken() }
        try memory.write(lines)
        lock.withLock { writes.append(lines.count) }
    }

    package func close() throws { try memory.close() }

    package func session() throws -> Session { try memory.session() }
}

/// A store whose states take about 10 KB each, recording under `memoryLimit` (256 KB unless given: a 64 KB queue) to
/// a transport that holds up its writes.
package func heldRecorderOfATenKilobyteTally(memoryLimit: Int = 256 << 10) -> (
    Store<Tally.State, Tally.Action>, SessionRecorder<Tally.State, Tally.Action>, ControlledTransport
) {
    let transport = ControlledTransport()
    var large = Tally.State()
    large.items = Array(repeating: 1000, count: 2000)
    let store = Store(initialState: large, reducer: Tally.reducer)
    transport.hold()
    let recorder = store.startRecording(
        .init(storeID: "tally", app: AppInfo(name: "T"), memoryLimit: memoryLimit), to: transport)
    return (store, recorder, transport)
}
