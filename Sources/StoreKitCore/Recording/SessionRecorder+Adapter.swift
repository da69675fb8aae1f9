/// What an adapter drives to record a store the package does not own (a ReSwift, Fluxor or TCA store): the adapter
/// starts a recorder with ``SessionRecorder/init(initialState:transport:configuration:)`` from the store's current
/// state, hands it each action with the state after it, and calls ``SessionRecorder/finish(reason:timeout:)``.
///
/// ```swift
/// let recorder = SessionRecorder<AppState, AppAction>(
///     initialState: store.state, transport: FileTransport(path: "/tmp/todos.jsonl"),
///     configuration: .init(storeID: "todos", app: AppInfo(name: "TodoApp")))
/// let step = recorder.record(action, state: store.state)                   // from the library's hook
/// recorder.record(followUp, state: store.state, origin: .effect(cause: step))
/// recorder.finish()
/// ```
///
/// The recorder numbers the actions 1, 2, 3 … in the order the adapter hands them over, and, like the store's own
/// recording, never blocks: it only queues, and a background thread encodes and sends.
///
/// > Warning: Hand over each action once, in the order the store applied them, and from one thread at a time (the
/// > thread the library dispatches on). Do not register a recorder that an adapter drives on a ``Store``.
extension SessionRecorder {
    /// Records an action the store applied and the state after it.
    /// - Parameters:
    ///   - action: The action.
    ///   - state: The store's state after the reducer ran the action.
    ///   - origin: ``ActionEvent/Origin/app`` for an action the app dispatched; for one an effect dispatched,
    ///     `.effect(cause:)` with the sequence number this method returned for the action that started the effect
    ///     (`nil` when the library does not say; a cause that is not an earlier action is recorded as `nil`).
    /// - Returns: The action's sequence number in the session, to name it as the cause of the actions its effects
    ///   dispatch; `nil` once the recorder is finishing.
    @discardableResult
    public func record(_ action: Action, state: State, origin: ActionEvent.Origin = .app) -> Int? {
        mailbox.postNext(action, state: state, origin: origin, time: sessionTime(0))
    }

    /// Records that the store applied an action the adapter cannot hand over (its type is not `Codable`): a `gap`
    /// of one action, so the session says what is missing instead of leaving a silent hole. Replay goes on from the
    /// state recorded after the next action.
    /// - Parameters:
    ///   - reason: Why the action is missing; ``GapEvent/Reason/notEncodable`` unless told.
    ///   - message: What was skipped, such as the action's type name.
    /// - Returns: The skipped action's sequence number in the session; `nil` once the recorder is finishing.
    @discardableResult
    public func recordSkippedAction(reason: GapEvent.Reason = .notEncodable, message: String) -> Int? {
        mailbox.postSkipped(reason: reason, message: message)
    }

    /// Records an action of a library whose actions are values of any type (ReSwift's and Fluxor's `Action`
    /// protocols): as a ``RegisteredAction`` when its type is `Codable` and listed by `Registry`, else as a skipped
    /// action (``GapEvent/Reason/notEncodable``) whose message names its type.
    /// - Parameters:
    ///   - action: The action, as the library hands it over.
    ///   - state: The store's state after the reducer ran the action.
    ///   - origin: Where the action came from, as in ``record(_:state:origin:)``.
    /// - Returns: The action's sequence number in the session; `nil` once the recorder is finishing.
    @discardableResult
    public func record<Registry: ActionRegistry>(
        anyAction action: Any, state: State, origin: ActionEvent.Origin = .app
    ) -> Int? where Action == RegisteredAction<Registry> {
        let type = Swift.type(of: action)
        guard Registry.types.entry(for: type) != nil else {
            let why =
                action is any Encodable
                ? "its type is not listed in \(Action.registryName).types" : "it is not Codable"
            return recordSkippedAction(message: "'\(String(describing: type))' was not recorded: \(why)")
        }
        // A registered type is `Codable & Sendable` (``ActionType`` takes no other), so the value is `Sendable`; the
        // cast cannot fail (a marker protocol is not checked at run time), and goes through a generic function
        // because the compiler rejects one written to `any Sendable` directly.
        return record(
            RegisteredAction(unchecked: Self.cast(action, to: (any Sendable).self)), state: state,
            origin: origin)
    }

    /// `value` as a `T`, which it must be.
    private static func cast<T>(_ value: Any, to type: T.Type) -> T {
        value as! T
    }
}
