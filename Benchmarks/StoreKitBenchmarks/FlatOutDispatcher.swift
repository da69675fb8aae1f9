import Foundation
import StoreKitCore

/// Dispatches `restock` to the inventory store on a thread of its own as fast as the recorder takes the actions:
/// never more than ``ahead`` actions beyond those the recorder has written or dropped, so the recorder is always
/// busy while its queue never fills.
final class FlatOutDispatcher: @unchecked Sendable {
    /// The most actions dispatched beyond those the recorder has handled.
    static let ahead = 500
    private let store: Store<Inventory.State, Inventory.Action>
    private let recorder: SessionRecorder<Inventory.State, Inventory.Action>
    private let lock = NSLock()
    private var stopping = false
    private let done = DispatchSemaphore(value: 0)

    /// Starts dispatching.
    init(store: Store<Inventory.State, Inventory.Action>, recorder: SessionRecorder<Inventory.State, Inventory.Action>) {
        self.store = store
        self.recorder = recorder
        Thread { [self] in
            var dispatched = 0
            while !lock.withLock({ stopping }) {
                let statistics = recorder.statistics
                if dispatched - statistics.actionsWritten - statistics.dropped >= Self.ahead {
                    // Pacing, not a wait: the recorder is behind by the most this lets it be.
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
