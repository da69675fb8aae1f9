import StoreKitCore
import StoreKitReplay

/// A reason replayd cannot start, printed as `replayd: <message>` with exit status 2.
struct DaemonError: Error, CustomStringConvertible {
    /// What is wrong and, where it helps, what to do.
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
