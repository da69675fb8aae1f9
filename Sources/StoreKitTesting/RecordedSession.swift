import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// A recorded session decoded into your own state and action types, to turn a session that caught a bug into
/// a regression test in a few lines.
///
/// ```swift
/// let recording = try RecordedSession<Todos.State, Todos.Action>(contentsOf: "bug-1234.jsonl")
/// let store = recording.testStore(reducer: Todos.reducer)
/// for step in recording.steps where step.origin == .app { await store.send(step.action) { $0 = step.state } }
/// // or, as a golden assertion: every recorded state must come out of the current reducer
/// try recording.assertReplays(with: Todos.reducer)
/// ```
public struct RecordedSession<State: Codable & Equatable & Sendable, Action: Codable & Equatable & Sendable>: Sendable {
    /// One recorded step.
    public struct Step: Sendable {
        /// The sequence number.
        public var sequence: Int
        /// The action.
        public var action: Action
        /// Who dispatched it.
        public var origin: ActionEvent.Origin
        /// The recorded state after it.
        public var state: State
    }

    /// The session as read.
    public let session: Session
    /// The recorded initial state.
    public let initialState: State
    /// Every recorded step, in order.
    public let steps: [Step]

    /// Reads and decodes the session at `path`.
    /// - Throws: `SessionReadError` for a malformed file, `DecodingError` when a value no longer decodes.
    public init(contentsOf path: String) throws {
        try self.init(try Session(contentsOf: path))
    }

    /// Decodes an already read session.
    /// - Throws: `DecodingError` when a value no longer decodes.
    public init(_ session: Session) throws {
        let decoder = JSONValueDecoder()
        self.session = session
        self.initialState = try decoder.decode(State.self, from: session.header.initialState)
        self.steps = try session.actions.map { event in
            Step(
                sequence: event.sequence, action: try decoder.decode(Action.self, from: event.action),
                origin: event.origin, state: try decoder.decode(State.self, from: event.state))
        }
    }

    /// A ``TestStore`` starting from the recorded initial state.
    public func testStore(
        reducer: Reducer<State, Action>, effects: [Effect<State, Action>] = [],
        reportFailure: @escaping @Sendable (TestFailure) -> Void = TestFailure.reportToTestFramework
    ) -> TestStore<State, Action> {
        TestStore(initialState: initialState, reducer: reducer, effects: effects, reportFailure: reportFailure)
    }

    /// Replays the recording through `reducer` and throws unless every state matches.
    /// - Throws: ``GoldenReplayError`` with the divergence and its -/+ diff.
    public func assertReplays(with reducer: Reducer<State, Action>) throws(GoldenReplayError) {
        let report = ReplayEngine(stores: [ReplayableStore(id: session.header.storeID, reducer: reducer)]).replay(session)
        guard report.isMatch else { throw GoldenReplayError(report.explanation(source: session.header.sessionID)) }
    }
}
