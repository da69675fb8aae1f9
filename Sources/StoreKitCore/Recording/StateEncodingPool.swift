import Foundation
import StoreKitJSON
import StoreKitSystem

/// Encodes windows of a recorder's queued states on two threads: the recorder's background thread and one more,
/// started the first time a window is submitted, at the same lowered priority. The second thread starts on a window
/// when it is submitted, the first joins it when it collects the window.
///
/// Each thread encodes with its own writer (an ``EncodingMemo`` that copies the parts proven unchanged since the
/// state it encoded last, see ``EncodingMemo/PartReuse/provenValueParts``), taking the next state
/// of the window under the pool's lock, so the bytes are those one thread would write, whichever thread writes
/// them. The second thread waits on a condition between windows (it never polls) and ends when ``stop()`` is
/// called. Used by one recorder's background thread.
package final class StateEncodingPool<State: Encodable & Sendable>: @unchecked Sendable {
    /// A state's canonical bytes, or the description of the error its encoding threw.
    typealias Encoded = Result<[UInt8], Failure>

    /// The error a state's encoding threw, carried as its description (what the recorder writes in the `gap`).
    struct Failure: Error, CustomStringConvertible {
        /// `"\(error)"` of the error the encoding threw.
        let description: String
    }

    private let encoder = CanonicalJSONEncoder()
    /// The recorder's background thread's writer, and the second thread's.
    private let callerMemo = EncodingMemo(reuse: .provenValueParts)
    private let helperMemo = EncodingMemo(reuse: .provenValueParts)

    // Guarded by `condition`.
    private let condition = NSCondition()
    private var states: [State] = []
    private var results: [Encoded?] = []
    /// The next state of the window that no thread took yet.
    private var next = 0
    private var encodedCount = 0
    private var helperStarted = false
    private var helperRunning = false
    private var stopped = false
    /// Whether the second thread is to go back to the priority it had before it lowered its own.
    private var appPriorityWanted = false

    /// Whether the second thread was started and has not ended yet.
    package var isHelperRunning: Bool { condition.withLock { helperRunning } }

    /// Whether the second thread was ever started.
    package var wasHelperStarted: Bool { condition.withLock { helperStarted } }

    /// Hands `window` to the second thread, which starts encoding it while this one does other work; call
    /// ``collect()`` before the next window.
    func submit(_ window: [State]) {
        condition.lock()
        defer { condition.unlock() }
        states = window
        results = Array(repeating: nil, count: window.count)
        next = 0
        encodedCount = 0
        if !helperStarted && !stopped {
            helperStarted = true
            helperRunning = true
            Thread { [self] in
                try? Syscall.nameCurrentThread("state encoder")
                runHelper()
            }.start()
        }
        condition.broadcast()
    }

    /// The bytes of each state of the submitted window, in its order: encodes on this thread the states the second
    /// has not taken yet, and waits for those it is encoding.
    func collect() -> [Encoded] {
        condition.lock()
        defer { condition.unlock() }
        while let (index, state) = takeNext() {
            condition.unlock()
            let encoded = Self.encode(state, with: encoder, memo: callerMemo)
            condition.lock()
            store(encoded, at: index)
        }
        while encodedCount < results.count { condition.wait() }
        let encoded = results.map { $0! }
        states = []
        results = []
        return encoded
    }

    /// Ends the second thread, and waits until it has.
    func stop() {
        condition.lock()
        defer { condition.unlock() }
        stopped = true
        condition.broadcast()
        while helperRunning { condition.wait() }
    }

    /// Has the second thread go back to the priority it had before it lowered its own, as the recorder's thread
    /// does once the recorder is finishing (where the system allows it).
    func returnToTheAppsPriority() {
        condition.withLock {
            appPriorityWanted = true
            condition.broadcast()
        }
    }

    private func runHelper() {
        // Like the recorder's own thread: yields to the app's threads; without that courtesy it still works.
        var appPriority = try? Syscall.lowerCurrentThreadPriority()
        condition.lock()
        defer {
            helperRunning = false
            condition.broadcast()
            condition.unlock()
        }
        while true {
            while !stopped && next >= states.count && !(appPriorityWanted && appPriority != nil) { condition.wait() }
            if appPriorityWanted, let priority = appPriority {
                appPriority = nil
                try? Syscall.setCurrentThreadPriority(priority)
            }
            guard let (index, state) = takeNext() else {
                if stopped { return }
                continue
            }
            condition.unlock()
            let encoded = Self.encode(state, with: encoder, memo: helperMemo)
            condition.lock()
            store(encoded, at: index)
        }
    }

    /// The window's next state not taken yet, now taken; call with the lock held.
    private func takeNext() -> (Int, State)? {
        guard next < states.count else { return nil }
        defer { next += 1 }
        return (next, states[next])
    }

    /// Records a state's bytes, and wakes the waiting thread after the window's last; call with the lock held.
    private func store(_ encoded: Encoded, at index: Int) {
        results[index] = encoded
        encodedCount += 1
        if encodedCount == results.count { condition.broadcast() }
    }

    private static func encode(_ state: State, with encoder: CanonicalJSONEncoder, memo: EncodingMemo) -> Encoded {
        do {
            return .success(try encoder.encodeToBytes(state, reusing: memo))
        } catch {
            return .failure(Failure(description: "\(error)"))
        }
    }
}
