import Foundation
import StoreKitCore

/// Diffing two large states; also a whole-process mode for comparing with other tools.
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

    /// Loads two JSON files and diffs them, as a whole process would; returns the number of changes.
    static func diffFiles(_ oldPath: String, _ newPath: String) throws -> Int {
        let old = try JSONValue(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: oldPath))))
        let new = try JSONValue(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: newPath))))
        return StateDiff(from: old, to: new).changes.count
    }
}
