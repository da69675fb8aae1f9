import Foundation
import StoreKitJSON
import StoreKitSystem

/// An interceptor that records every action a store applies, with the state after it, as a session.
///
/// The app's thread only appends the action and the new state (a copy-on-write value, not a deep copy) to a
/// bounded queue; a background thread encodes them canonically and hands NDJSON lines to a ``SessionTransport``.
/// Nothing proportional to the state's size happens on the dispatching thread.
///
/// A store with replayable effects (``EffectReplay/rerun``) is recorded in format 2: the recorder also writes each
/// input an effect run takes through its context (a `call` line, before any action the effect sends after it) and
/// how a replayable effect's run ends (an `effectEnd` line), posted from the effect's task the same way, and names
/// the effect that sent an action. A store without them is recorded in format 1, as before effects were replayed.
///
/// When the queue is full the recorder drops the action, counts it, and writes a `gap` line once there is room
/// again. The lines a transport has not confirmed as persisted are held, bounded in bytes (a share of
/// ``Configuration/memoryLimit``, which bounds everything the recorder holds), and sent again after a reconnect from the receiver's last persisted
/// sequence number, so a `replayd` that is killed and restarted loses nothing; what the recorder no longer holds, or
/// what a transport that does not confirm failed to take, becomes a `gap`. The recorder never blocks, throws
/// into, or crashes the app, whatever happens to its transport.
///
/// ```swift
/// let recorder = store.startRecording(
///     SessionRecorder.Configuration(storeID: "todos", app: AppInfo(name: "TodoApp", version: "1.4")),
///     to: FileTransport(path: "/tmp/todos.jsonl"))
/// store.dispatch(.addTodo(title: "Milk"))
/// recorder.finish()
/// ```
///
/// A store the package does not own (ReSwift, Fluxor, TCA) is recorded by an adapter that creates a recorder from
/// the store's state and hands it each action itself (``record(_:state:origin:)``, docs/adapters.md).
///
/// > Warning: Register one recorder on one store. Call ``finish(reason:timeout:)`` when the session is over;
/// > a recorder that is never finished keeps its background thread and leaves the session without an `end` line.
public final class SessionRecorder<State: Encodable & Sendable, Action: Encodable & Sendable>: Interceptor,
    EffectInputSink
{
    /// How a recorder names and bounds its session.
    public struct Configuration: Sendable {
        /// The id of the replayable store that replays this session.
        public var storeID: String
        /// The app that records. When its ``AppInfo/commit`` is empty, the header names the commit of the git
        /// checkout the running executable lives in, if any, read as the recorder starts.
        public var app: AppInfo
        /// The session's id; a fresh UUID unless given.
        public var sessionID: String
        /// How many actions may wait for the background thread before new ones are dropped; `nil` (the default)
        /// bounds them by memory instead, with their share of ``memoryLimit``.
        public var bufferCapacity: Int?
        /// The most memory the recorder holds for the session (32 MB unless set): the actions waiting for the
        /// background thread, the encoded lines gathered before a write, the lines held until the transport
        /// confirms them, and what the transport holds itself (a ``FlightRecorder``'s lines, see
        /// ``SessionTransport/memoryBound``). Beyond it new actions are dropped and recorded as a `gap` of reason
        /// ``GapEvent/Reason/bufferFull``, never blocking the app.
        ///
        /// After the transport's part, the lines held until confirmed get a quarter, the chunk of lines before a
        /// write an eighth (a sixteenth that may grow to twice it, at most 16 MB), and the queue the rest. A queued action is estimated by the encoded
        /// size of the last action and state encoded (at first, of the initial state), so a small state queues many
        /// actions and a large one few; at most 4096 actions are queued on one estimate. With a
        /// ``bufferCapacity``, the queue is bounded by that count instead.
        public var memoryLimit: Int
        /// The queue's bound set through the deprecated ``bufferBytes``, if any.
        var queueBytesOverride: Int?
        /// The bound set through the deprecated ``unconfirmedBufferBytes``, if any (tests set it to hold nothing in
        /// memory).
        package var unconfirmedBytesOverride: Int?
        /// Without a ``bufferCapacity``: the most memory the actions waiting for the background thread may hold;
        /// unless set, their share of ``memoryLimit`` (before a transport's own part).
        @available(*, deprecated, message: "set memoryLimit, which bounds the queue and every other part the recorder holds")
        public var bufferBytes: Int {
            get { queueBytesOverride ?? RecorderMemoryShares(limit: memoryLimit, transportBytes: 0).queueBytes }
            set { queueBytesOverride = max(1, newValue) }
        }
        /// Free-form metadata for the header.
        public var metadata: [String: JSONValue]
        /// A display name for an action; by default its case path through nested actions (see ``ActionName``).
        public var actionName: (@Sendable (Action) -> String)?
        /// Full states on every line, or patches with keyframes.
        public var snapshots: SnapshotPolicy
        /// The secret parts of the state and actions, replaced before anything is written (see ``Redaction``).
        public var redaction: Redaction
        /// Whether every part of a state that is unchanged since the previous state (the same bits: the same
        /// numbers, and the same copy-on-write storage of its arrays, strings and dictionaries) is written from the
        /// previous state's bytes instead of being encoded again. Unless set, only the parts whose type is proven
        /// to hold values only are (structs, enums, strings and standard collections of them, all the way down):
        /// that is always right, and makes recording a large, mostly unchanged state much cheaper. Set, it reuses
        /// a part that holds a class instance too, which bits cannot show changed in place: use it only for states
        /// made of value types whose parts the proof cannot see into (an enum whose payload holds an array, say).
        /// Parts that are classes themselves are always encoded.
        public var reusesEncodingOfUnchangedParts: Bool
        /// The most bytes of lines held until the transport confirms it persisted them; beyond it the oldest are
        /// let go, and a reconnect after losing them records them as a `gap`. Unless set, their share of
        /// ``memoryLimit`` (before a transport's own part).
        @available(*, deprecated, message: "set memoryLimit, which bounds the unconfirmed lines and every other part the recorder holds")
        public var unconfirmedBufferBytes: Int {
            get {
                unconfirmedBytesOverride ?? RecorderMemoryShares(limit: memoryLimit, transportBytes: 0).unconfirmedBytes
            }
            set { unconfirmedBytesOverride = max(0, newValue) }
        }
        /// Whether the states of a long backlog are encoded on two background threads instead of one (the lines are
        /// the same). `nil` (the default) decides by the machine: two threads
        /// when it has at least three cores, so the app's own threads keep a core to themselves; on two cores the
        /// second encoding thread lengthened the app's slowest dispatches. Redaction and
        /// ``reusesEncodingOfUnchangedParts`` always encode on one thread.
        public var encodesStatesInParallel: Bool?
        /// Whether the session records the notes the app writes with ``SessionRecorder/note(_:fields:)``. A session
        /// that may hold notes is written in format 3, which readers and daemons from before notes refuse at its
        /// header, so it is off unless set; a recorder without it drops every note and counts it in
        /// ``RecorderStatistics/notesDropped``.
        public var recordsNotes: Bool

        /// Creates a configuration.
        public init(
            storeID: String, app: AppInfo, sessionID: String = UUID().uuidString.lowercased(),
            bufferCapacity: Int? = nil, memoryLimit: Int = 32 << 20, metadata: [String: JSONValue] = [:],
            actionName: (@Sendable (Action) -> String)? = nil, snapshots: SnapshotPolicy = .full,
            redaction: Redaction = Redaction(), reusesEncodingOfUnchangedParts: Bool = false,
            encodesStatesInParallel: Bool? = nil, recordsNotes: Bool = false
        ) {
            self.recordsNotes = recordsNotes
            self.storeID = storeID
            self.app = app
            self.sessionID = sessionID
            self.bufferCapacity = bufferCapacity.map { max(1, $0) }
            self.memoryLimit = max(1, memoryLimit)
            self.metadata = metadata
            self.actionName = actionName
            self.snapshots = snapshots
            self.redaction = redaction
            self.reusesEncodingOfUnchangedParts = reusesEncodingOfUnchangedParts
            self.encodesStatesInParallel = encodesStatesInParallel
        }

        /// Creates a configuration whose queue (and, when given, unconfirmed lines) are bounded separately.
        @available(*, deprecated, message: "pass memoryLimit instead of bufferBytes and unconfirmedBufferBytes")
        public init(
            storeID: String, app: AppInfo, sessionID: String = UUID().uuidString.lowercased(),
            bufferCapacity: Int? = nil, bufferBytes: Int, metadata: [String: JSONValue] = [:],
            actionName: (@Sendable (Action) -> String)? = nil, snapshots: SnapshotPolicy = .full,
            redaction: Redaction = Redaction(), reusesEncodingOfUnchangedParts: Bool = false,
            unconfirmedBufferBytes: Int? = nil, encodesStatesInParallel: Bool? = nil
        ) {
            self.init(
                storeID: storeID, app: app, sessionID: sessionID, bufferCapacity: bufferCapacity, metadata: metadata,
                actionName: actionName, snapshots: snapshots, redaction: redaction,
                reusesEncodingOfUnchangedParts: reusesEncodingOfUnchangedParts,
                encodesStatesInParallel: encodesStatesInParallel)
            queueBytesOverride = max(1, bufferBytes)
            unconfirmedBytesOverride = unconfirmedBufferBytes.map { max(0, $0) }
        }

        /// Creates a configuration whose unconfirmed lines are bounded separately.
        @available(*, deprecated, message: "pass memoryLimit instead of unconfirmedBufferBytes")
        public init(
            storeID: String, app: AppInfo, sessionID: String = UUID().uuidString.lowercased(),
            bufferCapacity: Int? = nil, metadata: [String: JSONValue] = [:],
            actionName: (@Sendable (Action) -> String)? = nil, snapshots: SnapshotPolicy = .full,
            redaction: Redaction = Redaction(), reusesEncodingOfUnchangedParts: Bool = false,
            unconfirmedBufferBytes: Int, encodesStatesInParallel: Bool? = nil
        ) {
            self.init(
                storeID: storeID, app: app, sessionID: sessionID, bufferCapacity: bufferCapacity, metadata: metadata,
                actionName: actionName, snapshots: snapshots, redaction: redaction,
                reusesEncodingOfUnchangedParts: reusesEncodingOfUnchangedParts,
                encodesStatesInParallel: encodesStatesInParallel)
            unconfirmedBytesOverride = max(0, unconfirmedBufferBytes)
        }

        /// How ``memoryLimit`` is shared when the transport holds `transportBytes` itself.
        func memoryShares(transportBytes: Int) -> RecorderMemoryShares {
            RecorderMemoryShares(
                limit: memoryLimit, transportBytes: transportBytes, queueOverride: queueBytesOverride,
                unconfirmedOverride: unconfirmedBytesOverride)
        }
    }

    // This is the app's side: it stamps each action's time and posts it to the mailbox. The background side is a
    // `RecorderWorker`, which owns the transport, the encoding and the resending, and is reached only through the
    // mailbox.

    /// The configuration the recorder was created with.
    public let configuration: Configuration
    /// The monotonic time, in nanoseconds, at which recording started: an action's `time` counts from it.
    private let startNanoseconds: UInt64
    /// The monotonic time, in nanoseconds, from which the store counts its dispatches' `uptimeNanoseconds`, when
    /// known: an action's time is then the store's, without reading the clock again.
    private let storeClockOrigin: UInt64?
    /// How ``Configuration/memoryLimit`` is shared among the recorder's parts, with this transport.
    package let memoryShares: RecorderMemoryShares
    /// What this side shares with the background thread: the queue, its memory bound and the statistics.
    let mailbox: RecorderMailbox<State, Action>
    /// What encodes the states of a long batch on two threads, held by the background thread; `nil` where that
    /// could change the lines or cannot pay (see ``RecorderWorker``).
    package let stateEncodingPool: StateEncodingPool<State>?

    /// Creates a recorder and starts its background thread, which writes the header at once.
    ///
    /// Prefer `Store.startRecording(_:to:)`, which reads the store's current state and registers the recorder in
    /// one step so no action slips in between.
    /// - Parameters:
    ///   - initialState: The store's state when recording starts.
    ///   - transport: Where the lines go.
    ///   - configuration: Names and bounds.
    public convenience init(initialState: State, transport: any SessionTransport, configuration: Configuration) {
        self.init(
            initialState: initialState, transport: transport, configuration: configuration, storeClockOrigin: nil,
            replayableEffects: [])
    }

    /// Creates a recorder for a store that counts its dispatches' `uptimeNanoseconds` from `storeClockOrigin`
    /// (monotonic nanoseconds), or, with `nil`, one that reads the clock at each action; a store with
    /// `replayableEffects` is recorded in format 2, with its effect lines.
    init(
        initialState: State, transport: any SessionTransport, configuration: Configuration, storeClockOrigin: UInt64?,
        replayableEffects: [String]
    ) {
        self.configuration = configuration
        self.storeClockOrigin = storeClockOrigin
        let startedAt = Date()
        startNanoseconds = MonotonicClock.nanoseconds()
        let shares = configuration.memoryShares(transportBytes: transport.memoryBound)
        mailbox = RecorderMailbox(
            budget: RecorderMemoryBudget(
                capacity: configuration.bufferCapacity, byteLimit: shares.queueBytes,
                slotBytes: RecorderQueue<State, Action>.slotBytes,
                keptActionBytes: RecorderQueue<State, Action>.keptSlotBytes),
            recordsEffects: !replayableEffects.isEmpty, recordsNotes: configuration.recordsNotes)
        memoryShares = shares
        let worker = RecorderWorker(
            initialState: initialState, transport: transport, configuration: configuration, mailbox: mailbox,
            memoryShares: shares, startedAt: startedAt, startNanoseconds: startNanoseconds,
            replayableEffects: replayableEffects)
        stateEncodingPool = worker.stateEncodingPool
        let name = "recorder \(configuration.storeID)"
        Thread {
            try? Syscall.nameCurrentThread(name)
            worker.run()
        }.start()
    }

    /// What the recorder has done so far.
    public var statistics: RecorderStatistics {
        mailbox.statistics
    }

    /// The monotonic time (``MonotonicClock``), in nanoseconds, after which the background thread stops
    /// delivering and writes what is left as `timedOut` gaps; `nil` until ``finish(reason:timeout:)`` is called.
    package var deliveryDeadline: UInt64? {
        mailbox.deliveryDeadline
    }

    /// The most memory the queued actions were estimated to hold at once, within their share of
    /// ``Configuration/memoryLimit`` (``memoryShares``).
    package var peakQueuedBytes: Int {
        mailbox.peakQueuedBytes
    }

    /// Enqueues the action and the new state; called by the store on the dispatching thread.
    public func actionDispatched(_ action: Action, oldState: State, newState: State, context: DispatchContext) {
        mailbox.post(action, state: newState, context: context, time: sessionTime(context.uptimeNanoseconds))
    }

    /// Enqueues the `call` line of an input an effect run took; called on the effect's task.
    package func record(_ call: EffectCallRecord) {
        mailbox.post(call, time: sessionTime(call.uptimeNanoseconds))
    }

    /// Enqueues the `effectEnd` line of a replayable effect's run; called on the effect's task.
    package func record(_ end: EffectEndRecord) {
        mailbox.post(end, time: sessionTime(end.uptimeNanoseconds))
    }

    /// Writes a `note` line after the actions recorded so far: something the app wants beside them in the
    /// timeline, such as a log message, a request and its status, or a screen change.
    ///
    /// Like an action, the note is only queued on the calling thread; the background thread writes it. `log`,
    /// `log --follow` and `report` show it between the actions around it, and replay skips it. The configuration's
    /// ``Redaction/notePaths`` redact its message and fields before it is written.
    ///
    /// ```swift
    /// recorder.note("GET /todos failed", fields: ["requestId": "r-17", "status": "500"])
    /// ```
    /// - Parameters:
    ///   - message: What happened.
    ///   - fields: Labels that go with it, such as a request id and a status.
    ///
    /// > Warning: Notes need ``Configuration/recordsNotes``; without it the note is dropped and counted in
    /// > ``RecorderStatistics/notesDropped``, as it is when the queue is full or the recorder has finished.
    public func note(_ message: String, fields: [String: String] = [:]) {
        let now = MonotonicClock.nanoseconds()
        let time = Double(now > startNanoseconds ? now - startNanoseconds : 0) / 1e9
        mailbox.post(NoteEvent(time: time, message: message, fields: fields))
    }

    /// Seconds since recording started of a moment the store stamped `uptimeNanoseconds` after its creation (read
    /// from the clock now when the store's origin is not known).
    func sessionTime(_ uptimeNanoseconds: UInt64) -> Double {
        let now = storeClockOrigin.map { $0 &+ uptimeNanoseconds } ?? MonotonicClock.nanoseconds()
        return Double(now > startNanoseconds ? now - startNanoseconds : 0) / 1e9
    }

    /// Flushes every queued action, writes the `end` line and closes the transport.
    ///
    /// Waits for the background thread at most `timeout`; later calls do nothing and return the statistics. When
    /// the flush would take longer, the background thread stops delivering a fifth of `timeout` (at most a second)
    /// before its end and writes, after the lines it delivered, a `gap` of reason ``GapEvent/Reason/timedOut`` for
    /// the actions it could not write and an `end` of reason ``EndEvent/Reason/timedOut``, so the session says
    /// exactly what it lacks (counted in ``RecorderStatistics/droppedTimedOut``).
    ///
    /// ``RecorderStatistics/isFinished`` in the result tells whether the `end` line was sent within the timeout.
    /// It is false only when the transport itself did not return in time (a write blocked): then nothing could be
    /// written in time, and the statistics say how many actions were seen and written so far; the background
    /// thread writes the gap and the `end` if the transport returns while the process lives.
    /// - Parameters:
    ///   - reason: Why the session ends, when it ends within the timeout.
    ///   - timeout: How long to wait for the flush.
    /// - Returns: The final statistics.
    @discardableResult
    public func finish(reason: EndEvent.Reason = .finished, timeout: Duration = .seconds(5)) -> RecorderStatistics {
        mailbox.finish(reason: reason, timeout: timeout)
    }
}
