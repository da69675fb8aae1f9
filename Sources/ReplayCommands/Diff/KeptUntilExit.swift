import StoreKitCore
import StoreKitReplay

/// Values a command keeps alive until the process exits, so that it never pays for freeing them.
///
/// Freeing a tree parsed from megabytes of JSON visits every node again; a command that is about to exit gains
/// nothing from it, as the kernel takes back the whole address space at once (docs/performance.md).
/// Only for the last, largest values of a command that exits right after.
enum KeptUntilExit {
    /// Keeps `value`, and everything it holds, alive until the process exits.
    static func keep<Value>(_ value: Value) {
        _ = Unmanaged.passRetained(Box(value))
    }

    private final class Box<Value> {
        let value: Value
        init(_ value: Value) { self.value = value }
    }
}
