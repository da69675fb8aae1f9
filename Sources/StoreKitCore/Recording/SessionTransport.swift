/// Where a ``SessionRecorder`` sends its NDJSON lines: a file, memory, or the `replayd` daemon.
///
/// The recorder calls a transport from its one background thread only, never from the app's threads, and never
/// concurrently. A transport reports failure by throwing; the recorder then counts the lines it could not deliver,
/// records them as a `gap` once the transport works again, and keeps the app running.
public protocol SessionTransport: Sendable {
    /// Begins (or resumes) the session by delivering its header line (`\n`-terminated).
    ///
    /// The recorder calls this before the first ``write(_:)``, and again before the next write whenever a call
    /// threw, so a transport that lost its connection reconnects here and continues the same session.
    /// - Returns: The last sequence number the receiver has persisted for this session, when it can tell (the
    ///   daemon does, on a reconnect); `nil` means every line delivered so far was kept. The recorder sends the
    ///   lines after that number again when it still holds them (see ``persistedSequence()``), and records the
    ///   rest as a gap.
    /// - Throws: Any error; the recorder retries with the next batch of lines.
    func start(header: [UInt8]) throws -> Int?

    /// Delivers one or more complete lines, each `\n`-terminated.
    /// - Throws: Any error when the lines were not delivered; the recorder records them as a gap.
    func write(_ lines: [UInt8]) throws

    /// The last sequence number the receiver has confirmed it persisted, or `nil` when it does not confirm.
    ///
    /// A receiver that confirms lets the recorder hold every line after this number (bounded in bytes) and send
    /// it again after a reconnect, so a receiver that restarts loses nothing. When it does not confirm, a line is
    /// kept once ``write(_:)`` returns, and a line whose write threw is recorded as a gap. The recorder calls this
    /// after each write, on its background thread; it must not wait.
    func persistedSequence() -> Int?

    /// How many effect lines (format 2) and notes (format 3) the receiver holds after the sequence number the last
    /// ``start(header:)`` returned, so the recorder does not send them again; 0 when it cannot tell.
    func effectLinesHeldAfterStart() -> Int

    /// Flushes and releases the transport after the recorder wrote the `end` line.
    func close() throws

    /// The most memory, in bytes, the transport itself holds for the session (a ``FlightRecorder``'s lines and
    /// the copy a dump makes); the recorder counts it within its ``SessionRecorder/Configuration/memoryLimit``
    /// and shares the rest among its own parts. 0 for a transport that holds nothing beyond the write it is in.
    var memoryBound: Int { get }
}

extension SessionTransport {
    /// A transport does not confirm what it persisted unless it says so.
    public func persistedSequence() -> Int? { nil }

    /// A transport holds no effect line it did not confirm unless it says so.
    public func effectLinesHeldAfterStart() -> Int { 0 }

    /// A transport holds nothing beyond the write it is in unless it says so.
    public var memoryBound: Int { 0 }
}
