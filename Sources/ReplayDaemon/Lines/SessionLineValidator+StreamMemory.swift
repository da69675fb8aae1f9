import StoreKitJSON

extension SessionLineValidator {
    /// What the validator remembers of the last valid line of one stream (one client): the scanner's memory of it
    /// and, when it was an action line the fast path took, what the fast path read of it.
    ///
    /// The next line that differs from it only in a few values is then read from those values alone. Use one per
    /// stream, with lines of that stream only.
    package final class StreamMemory {
        /// The scanner's memory of the last valid line.
        let lines = JSONLineMemory()
        /// What the action fast path read of the last valid line; `nil` when that line did not take it.
        var lastAction: ActionFields?

        /// Creates an empty memory.
        package init() {}
    }
}
