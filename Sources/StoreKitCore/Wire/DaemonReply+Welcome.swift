extension DaemonReply {
    /// The daemon's answer to a session header: the session is open, and this much of it is already stored.
    package struct Welcome: Equatable, Sendable {
        /// The session id from the header.
        package var sessionID: String
        /// The last sequence number already stored for this session (0 for a new one): a client continues after
        /// it.
        package var lastSequence: Int
        /// How many effect lines (`call`, `effectEnd`; format 2) and notes (format 3) the file holds after the
        /// action or gap line that covers ``lastSequence``: a client continues after the first that many of its own
        /// such lines written after that line. 0 when the welcome names none.
        package var effectLinesAfterLastSequence: Int
        /// The session file's name in the daemon's sessions folder.
        package var file: String
        /// The protocol version the daemon speaks (``DaemonProtocol/firstVersion`` when its welcome names none).
        package var protocolVersion: Int

        /// Creates a welcome, by default of this package's ``DaemonProtocol/version``.
        package init(
            sessionID: String, lastSequence: Int, effectLinesAfterLastSequence: Int = 0, file: String,
            protocolVersion: Int = DaemonProtocol.version
        ) {
            self.sessionID = sessionID
            self.lastSequence = lastSequence
            self.effectLinesAfterLastSequence = effectLinesAfterLastSequence
            self.file = file
            self.protocolVersion = protocolVersion
        }

        /// Whether the daemon confirms what it stored with ``DaemonReply/persisted(seq:)`` replies.
        package var confirmsPersistence: Bool { protocolVersion >= DaemonProtocol.persistedRepliesVersion }
    }
}
