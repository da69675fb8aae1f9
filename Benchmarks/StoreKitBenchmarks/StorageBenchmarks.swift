import Foundation
import StoreKitCore

/// Session bytes per action with full and with delta snapshots.
enum StorageBenchmarks {
    static func bytesPerAction(bytes: Int, actions: Int) -> Row {
        func record(_ policy: SnapshotPolicy) -> Double {
            let store = Store(
                initialState: Inventory.state(itemCount: Inventory.itemCount(forBytes: bytes)), reducer: Inventory.reducer)
            let path = "/tmp/skr-bench-storage-\(getpid()).jsonl"
            defer { unlink(path) }
            let recorder = store.startRecording(
                .init(storeID: "inventory", app: AppInfo(name: "bench"), bufferCapacity: actions + 1, snapshots: policy),
                to: FileTransport(path: path))
            for index in 0..<actions { store.dispatch(.restock(index: index * 7, amount: 1)) }
            recorder.finish(timeout: .seconds(600))
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            return Double(size) / Double(actions)
        }
        return Row(
            name: "session bytes per action, 100 KB state, delta", figure: record(.delta), unit: "B",
            reference: record(.full), referenceName: "full snapshots", target: "<= 0.05x")
    }
}
