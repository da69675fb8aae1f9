/// Actions whose states the session does not hold: the session is incomplete between ``firstSequence`` and
/// ``lastSequence``, unless the gap keeps the actions themselves (``actions``), which replay runs through.
public struct GapEvent: Sendable, Hashable {
    /// Why the actions were dropped.
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        /// The recorder's bounded queue was full.
        case bufferFull
        /// The transport could not deliver them (daemon down, disk full).
        case transportFailed
        /// The action or its state could not be encoded (for example a NaN in the state).
        case encodingFailed
        /// The action is not `Codable` (or its type is not registered), so an adapter recording a store the package
        /// does not own skipped it; the reducer ran it, and replay picks up again from the next recorded state.
        case notEncodable
        /// replayd stored no line for these sequence numbers: it rejected them, or the client never sent them.
        /// replayd writes such a gap itself, just before the line that came after the hole.
        case rejected
        /// `finish(timeout:)` ran out of time before the recorder wrote these actions; the session's `end` has
        /// reason ``EndEvent/Reason/timedOut``.
        case timedOut
    }

    /// The first dropped sequence number.
    public var firstSequence: Int
    /// The last dropped sequence number (inclusive).
    public var lastSequence: Int
    /// Why they were dropped.
    public var reason: Reason
    /// Details, such as the transport's error.
    public var message: String?
    /// The actions the recorder kept without the states after them, one for each sequence number the gap covers, in
    /// order (each one's ``ActionEvent/state`` is `null`); empty when it kept none. Replay applies them and
    /// compares the state again at the next recorded one.
    public var actions: [ActionEvent]

    /// How many actions were dropped.
    public var count: Int { lastSequence - firstSequence + 1 }

    /// Whether the gap keeps its actions, so replay can run through it.
    public var keepsActions: Bool { !actions.isEmpty }

    /// Creates a gap covering `firstSequence...lastSequence`, keeping `actions` (none, or one for each of its
    /// sequence numbers, in order).
    public init(
        firstSequence: Int, lastSequence: Int, reason: Reason, message: String? = nil, actions: [ActionEvent] = []
    ) {
        self.firstSequence = firstSequence
        self.lastSequence = lastSequence
        self.reason = reason
        self.message = message
        self.actions = actions
    }
}
