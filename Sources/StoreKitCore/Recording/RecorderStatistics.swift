/// What a ``SessionRecorder`` has done so far.
public struct RecorderStatistics: Sendable, Hashable {
    /// Actions the recorder saw (recorded or not).
    public var actionsSeen = 0
    /// Actions delivered to the transport.
    public var actionsWritten = 0
    /// Of ``actionsWritten`` and ``actionsJournaled``, those kept without the state after them, in a `gap` that
    /// keeps its actions (``GapEvent/actions``): the queue had no room for more states but had for the actions, or
    /// the journal, with the receiver away, was past three quarters of its bound. Those the transport then lost
    /// leave this count for ``droppedTransportFailed``.
    public var actionsKeptWithoutStates = 0
    /// Actions dropped because the bounded queue was full, with no room even for the action without its state.
    public var droppedBufferFull = 0
    /// Actions the transport failed to deliver.
    public var droppedTransportFailed = 0
    /// Actions whose action or state could not be encoded.
    public var droppedEncodingFailed = 0
    /// Actions an adapter could not hand over because they are not `Codable` (or not registered), each recorded
    /// as a `gap` of reason ``GapEvent/Reason/notEncodable``.
    public var droppedNotEncodable = 0
    /// Actions not written because ``SessionRecorder/finish(reason:timeout:)`` ran out of time, each in a `gap`
    /// of reason ``GapEvent/Reason/timedOut``.
    public var droppedTimedOut = 0
    /// Actions not delivered to the transport yet whose lines are kept in its journal on disk
    /// (``UnixSocketTransport/Journal``), to be sent once `replayd` is back: by this recorder, or, when it finished
    /// first, by the next transport with the same journal folder and socket (the app's next launch). They are in
    /// neither ``actionsWritten`` nor ``dropped``; the count goes back to 0 once they are delivered.
    public var actionsJournaled = 0
    /// Effect lines (`call` and `effectEnd`) delivered to the transport.
    public var effectLinesWritten = 0
    /// Effect lines not delivered: dropped because the queue was full (then the rest of their run is dropped too,
    /// so the session never holds a run that skips a call), because their cause came before the recording, lost
    /// with the transport, or left when ``SessionRecorder/finish(reason:timeout:)`` ran out of time.
    public var effectLinesDropped = 0
    /// Notes (``SessionRecorder/note(_:fields:)``) not written: the queue was full, the recorder does not record
    /// notes (``SessionRecorder/Configuration/recordsNotes``), it was finishing, or
    /// ``SessionRecorder/finish(reason:timeout:)`` ran out of time before it wrote them. The first note dropped
    /// because the recorder does not record notes also sets ``lastError``, naming the setting.
    public var notesDropped = 0
    /// The most recent transport or encoding error, for diagnostics.
    public var lastError: String?
    /// Whether the recorder has finished: every queued action handled and the `end` line sent. False in what
    /// ``SessionRecorder/finish(reason:timeout:)`` returns when its timeout ran out first.
    public var isFinished = false

    /// All actions that did not reach the transport.
    public var dropped: Int {
        droppedBufferFull + droppedTransportFailed + droppedEncodingFailed + droppedNotEncodable + droppedTimedOut
    }

    /// Creates empty statistics.
    public init() {}
}
