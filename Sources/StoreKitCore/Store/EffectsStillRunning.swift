/// The error of `Store.waitForEffects(timeout:)`: effects were still running when the time was up.
public struct EffectsStillRunning: Error, Sendable, Equatable, CustomStringConvertible {
    /// How long the wait lasted.
    public var timeout: Duration
    /// The effects still running, in the order they started.
    public var running: [RunningEffect]

    /// Creates the error.
    public init(timeout: Duration, running: [RunningEffect]) {
        self.timeout = timeout
        self.running = running
    }

    /// `effects still running after 5.0 seconds: "timer" started by step 3 startTapped`.
    public var description: String {
        let list = running.map(\.description).joined(separator: "; ")
        return "effect\(running.count == 1 ? "" : "s") still running after \(timeout): \(list)"
    }
}
