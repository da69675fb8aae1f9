import Foundation
import StoreKitCore
import StoreKitJSON

/// Two large states for the whole-process diff, which Benchmarks/run.sh times with `replay-cli diff --states`.
enum DiffBenchmarks {
    /// Writes two states of about `bytes` bytes that differ in about 1% of their leaves.
    static func writePair(bytes: Int, to directory: String) throws -> (String, String) {
        var state = Inventory.state(itemCount: Inventory.itemCount(forBytes: bytes))
        let old = try CanonicalJSONEncoder().encodeToBytes(state)
        for index in stride(from: 0, to: state.items.count, by: 20) { state.items[index].quantity += 1 }
        let new = try CanonicalJSONEncoder().encodeToBytes(state)
        let oldPath = "\(directory)/old.json"
        let newPath = "\(directory)/new.json"
        try Data(old).write(to: URL(fileURLWithPath: oldPath))
        try Data(new).write(to: URL(fileURLWithPath: newPath))
        return (oldPath, newPath)
    }
}
