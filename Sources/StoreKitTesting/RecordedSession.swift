import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// A recorded session decoded into your own state and action types, to turn a session that caught a bug into
/// a regression test in a few lines.
///
/// ```swift
/// // Tests/TodosTests/bug-1234.jsonl, beside this test file
/// let recording = try RecordedSession<Todos.State, Todos.Action>(contentsOf: "bug-1234.jsonl")
/// let store = recording.testStore(reducer: Todos.reducer)
/// for step in recording.steps where step.origin == .app { await store.send(step.action) { $0 = step.state } }
/// // or, as a golden assertion: every recorded state must come out of the current reducer (and, given the store's
/// // effects, every replayable effect must send and call as it did)
/// try recording.assertReplays(with: Todos.reducer, effects: Todos.effects)
/// ```
///
/// A session of format 2 also holds what the app's replayable effects took from the outside world: each step lists
/// the recorded inputs (``Step/calls``) and ends (``Step/effectEnds``) of the effect runs its action started, and
/// an action an effect sent names that effect (``Step/effect``).
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
        /// The effect that sent the action, when an effect sent it and the session names it (format 2).
        public var effect: String?
        /// The recorded inputs of the effect runs this action started (calls, clock readings and sleeps, UUIDs,
        /// random values, state readings), in the order the session holds them; empty in a format 1 session.
        public var calls: [EffectCallEvent] = []
        /// How the effect runs this action started ended, as recorded; a run still going when the session ended has
        /// none.
        public var effectEnds: [EffectEndEvent] = []
    }

    /// The session as read.
    public let session: Session
    /// The recorded initial state.
    public let initialState: State
    /// Every recorded step, in order.
    public let steps: [Step]

    /// Reads and decodes the session at `path`: absolute, or relative to the folder of the calling test file, as
    /// `assertReplayMatches(session:stores:ignoring:record:artifacts:filePath:)` looks golden files up.
    ///
    /// Before this rule a relative path was looked up from the working directory. So that such a test keeps
    /// working, a relative path with no file beside the test file but one under the working directory still opens
    /// that file, and reports a note at the caller's line (a Swift Testing warning, under XCTest a line on standard
    /// output) asking for the path from the test file's folder; this fallback goes away in the next major version.
    /// - Parameters:
    ///   - path: The session file: absolute, or relative to the folder of the calling test file.
    ///   - fileID: The calling test file's id, for the note; leave the default.
    ///   - filePath: The calling test file, which relative paths start from; leave the default.
    ///   - line: The caller's line, for the note; leave the default.
    ///   - column: The caller's column, for the note; leave the default.
    ///   - reportNote: Where the note goes; by default the running test framework.
    /// - Throws: `SessionReadError` for a file that is missing or malformed (naming the path looked up from the test
    ///   file's folder), `DecodingError` when a value no longer decodes.
    public init(
        contentsOf path: String, fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column,
        reportNote: @Sendable (TestFailure) -> Void = TestFailure.reportToTestFramework
    ) throws {
        let resolved = TestFileRelativePath.resolve(path, calledFrom: filePath)
        let fileManager = FileManager.default
        guard resolved != path, !fileManager.fileExists(atPath: resolved), fileManager.fileExists(atPath: path) else {
            try self.init(try Session(contentsOf: resolved))
            return
        }
        let fromWorkingDirectory = URL(fileURLWithPath: path).standardizedFileURL.path
        reportNote(
            TestFailure(
                message: "RecordedSession(contentsOf: \"\(path)\") read \(fromWorkingDirectory), from the working "
                    + "directory, since \(resolved) does not exist; relative paths are now looked up from the test file's "
                    + "folder and the working directory is no longer tried in the next major version: pass the path "
                    + "from the test file's folder, or an absolute one",
                fileID: fileID, filePath: filePath, line: line, column: column, severity: .note))
        try self.init(try Session(contentsOf: path))
    }

    /// Decodes an already read session.
    /// - Throws: `DecodingError` when a value no longer decodes.
    public init(_ session: Session) throws {
        let decoder = JSONValueDecoder()
        self.session = session
        self.initialState = try decoder.decode(State.self, from: session.header.initialState)
        var steps = try session.actions.map { event in
            Step(
                sequence: event.sequence, action: try decoder.decode(Action.self, from: event.action),
                origin: event.origin, state: try decoder.decode(State.self, from: event.state), effect: event.effect)
        }
        let position = Dictionary(uniqueKeysWithValues: steps.enumerated().map { ($0.element.sequence, $0.offset) })
        for event in session.events {
            switch event {
            case .call(let call): if let index = position[call.cause] { steps[index].calls.append(call) }
            case .effectEnd(let end): if let index = position[end.cause] { steps[index].effectEnds.append(end) }
            case .header, .action, .gap, .end, .note: break
            }
        }
        self.steps = steps
    }

    /// A ``TestStore`` starting from the recorded initial state.
    public func testStore(
        reducer: Reducer<State, Action>, effects: [Effect<State, Action>] = [],
        reportFailure: @escaping @Sendable (TestFailure) -> Void = TestFailure.reportToTestFramework
    ) -> TestStore<State, Action> {
        TestStore(initialState: initialState, reducer: reducer, effects: effects, reportFailure: reportFailure)
    }

    /// Replays the recording through `reducer`, rerunning the replayable ones of `effects` against their recorded
    /// inputs, and throws unless every state matches and every rerun effect sends, calls and ends as recorded.
    /// - Parameters:
    ///   - reducer: The current reducer.
    ///   - effects: The store's effects; those the session names as replayable (format 2) are rerun.
    /// - Throws: ``GoldenReplayError`` with the explanation `replay-cli diff` prints: the divergence and its -/+
    ///   diff, or the effect, its step and the -/+ of what it sent.
    public func assertReplays(
        with reducer: Reducer<State, Action>, effects: [Effect<State, Action>] = []
    ) throws(GoldenReplayError) {
        let store = ReplayableStore(id: session.header.storeID, reducer: reducer, effects: effects)
        let report = ReplayEngine(stores: [store]).replay(session)
        guard report.isMatch else { throw GoldenReplayError(report.explanation(source: session.header.sessionID)) }
    }
}
