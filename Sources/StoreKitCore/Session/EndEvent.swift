/// The last line of a session: why it ended and what it holds.
public struct EndEvent: Sendable, Hashable {
    /// Why the session ended.
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        /// The app called `finish()`.
        case finished
        /// The app is exiting.
        case appExited
        /// The connection to the app was lost (written by the daemon).
        case disconnected
        /// `finish(timeout:)` ran out of time: the gaps of reason ``GapEvent/Reason/timedOut`` before this line
        /// hold the actions the recorder could not write.
        case timedOut
    }

    /// Why the session ended.
    public var reason: Reason
    /// How many actions the recorder saw, recorded or not.
    public var actions: Int
    /// How many of them were dropped (the sum of the gaps).
    public var dropped: Int
    /// Seconds since the session started.
    public var time: Double

    /// Creates an end event.
    public init(reason: Reason, actions: Int, dropped: Int, time: Double) {
        self.reason = reason
        self.actions = actions
        self.dropped = dropped
        self.time = time
    }
}
