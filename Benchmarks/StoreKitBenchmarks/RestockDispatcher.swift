import Foundation
import StoreKitCore

/// Dispatches `restock` to the inventory store on a thread of its own, at a pace, until stopped.
final class RestockDispatcher: @unchecked Sendable {
    /// How fast the actions come.
    enum Pace {
        /// As fast as the recorder takes them: never more than `ahead` beyond those it has written or dropped, so
        /// it is always busy while its queue never fills.
        case recorder(ahead: Int)
        /// At a fixed rate, as an app that does not wait for its recorder.
        case fixed(actionsPerSecond: Double)
    }

    private let lock = NSLock()
    private var stopping = false
    private let done = DispatchSemaphore(value: 0)

    /// Starts dispatching.
    init(
        store: Store<Inventory.State, Inventory.Action>, recorder: SessionRecorder<Inventory.State, Inventory.Action>,
        pace: Pace
    ) {
        let start = Measure.now()
        Thread { [self] in
            var dispatched = 0
            while !lock.withLock({ stopping }) {
                let due: Bool
                switch pace {
                case .recorder(let ahead):
                    let statistics = recorder.statistics
                    due = dispatched - statistics.actionsWritten - statistics.dropped < ahead
                case .fixed(let actionsPerSecond):
                    due = Double(dispatched) < (Measure.now() - start) * actionsPerSecond
                }
                // Pacing, not a wait: the next action is not due yet.
                guard due else {
                    Thread.sleep(forTimeInterval: 0.001)
                    continue
                }
                store.dispatch(.restock(index: dispatched, amount: 1))
                dispatched += 1
            }
            done.signal()
        }.start()
    }

    /// Stops dispatching and waits until the last dispatch returned.
    func stop() {
        lock.withLock { stopping = true }
        done.wait()
    }
}
