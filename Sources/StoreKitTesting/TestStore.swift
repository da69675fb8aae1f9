import Foundation
import StoreKitCore
import StoreKitReplay

/// An exhaustive test store in the style of The Composable Architecture: every action sent, every action an
/// effect dispatches and every state change must be asserted.
///
/// ```swift
/// let store = TestStore(initialState: Scoreboard.State(), reducer: Scoreboard.reducer,
///                       effects: [Scoreboard.postScore(to: StubServer(receipt: 7))])
/// await store.send(.homeScored(points: 1, scorer: "Ada")) {
///     $0.home = 1
///     $0.scorers = ["Ada"]
/// }
/// await store.receive(.scorePosted(receipt: 7)) { $0.lastReceipt = 7 }
/// await store.finish()
/// ```
/// A mismatch fails the test at the line of the `send` or `receive`, with a -/+ diff of the expected and the
/// actual state. ``finish(timeout:file:line:)`` fails for effect actions that were never received.
public final class TestStore<State: Codable & Equatable & Sendable, Action: Codable & Equatable & Sendable>:
    @unchecked Sendable
{
    private let store: Store<State, Action>
    private let interceptor = TestInterceptor<State, Action>()
    private let reportFailure: @Sendable (TestFailure) -> Void
    private var handled = 0

    /// The state as the test has asserted it so far.
    public private(set) var state: State

    /// Creates a test store over a real ``Store``.
    /// - Parameters:
    ///   - initialState: The state before the first action.
    ///   - reducer: The reducer under test.
    ///   - effects: The effects under test, with their test doubles.
    ///   - reportFailure: Where failures go; by default the running test framework.
    public init(
        initialState: State, reducer: Reducer<State, Action>, effects: [Effect<State, Action>] = [],
        reportFailure: @escaping @Sendable (TestFailure) -> Void = TestFailure.reportToTestFramework
    ) {
        self.state = initialState
        self.reportFailure = reportFailure
        self.store = Store(initialState: initialState, reducer: reducer, effects: effects)
        store.register(interceptor: interceptor)
    }

    /// Sends an action from "the user" and asserts how the state changed.
    /// - Parameters:
    ///   - action: The action.
    ///   - update: Mutates the previous state into the expected one; omit it only when the state must not change.
    public func send(
        _ action: Action, assert update: ((inout State) -> Void)? = nil,
        fileID: StaticString = #fileID, file: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        let unreceived = interceptor.stateChanges.dropFirst(handled)
        if !unreceived.isEmpty {
            fail(
                "must receive \(unreceived.count) action(s) dispatched by effects before sending \(action): "
                    + unreceived.map { "\($0.action)" }.joined(separator: ", "),
                fileID, file, line, column)
            handled += unreceived.count
        }
        store.dispatch(action)
        guard let change = interceptor.stateChanges.dropFirst(handled).first else { return }
        handled += 1
        check(change.newState, after: "send(\(action))", update, fileID, file, line, column)
    }

    /// Waits for the next action an effect dispatched, checks it is `expected`, and asserts the state change.
    public func receive(
        _ expected: Action, timeout: Duration = .seconds(5), assert update: ((inout State) -> Void)? = nil,
        fileID: StaticString = #fileID, file: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        let change: TestInterceptor<State, Action>.StateChange
        do {
            change = try await interceptor.log.wait(forCount: handled + 1, timeout: timeout)[handled]
        } catch {
            fail("expected to receive \(expected), but no action arrived within \(timeout)", fileID, file, line, column)
            return
        }
        handled += 1
        if change.action != expected {
            fail("received an unexpected action\n  - expected  \(expected)\n  + received  \(change.action)", fileID, file, line, column)
        }
        check(change.newState, after: "receive(\(expected))", update, fileID, file, line, column)
    }

    /// Waits for running effects and fails for every effect action that was never received.
    public func finish(
        timeout: Duration = .seconds(5),
        fileID: StaticString = #fileID, file: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        let finished = await withTaskGroup(of: Bool.self) { group in
            group.addTask { [store] in
                await store.waitForEffects()
                return true
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        if !finished {
            store.cancelEffects()
            fail("effects were still running after \(timeout)", fileID, file, line, column)
        }
        let unreceived = interceptor.stateChanges.dropFirst(handled)
        if !unreceived.isEmpty {
            fail(
                "\(unreceived.count) action(s) dispatched by effects were never received: "
                    + unreceived.map { "\($0.action)" }.joined(separator: ", "),
                fileID, file, line, column)
        }
    }

    private func check(
        _ actual: State, after step: String, _ update: ((inout State) -> Void)?,
        _ fileID: StaticString, _ file: StaticString, _ line: UInt, _ column: UInt
    ) {
        var expected = state
        update?(&expected)
        defer { state = actual }
        guard expected != actual else { return }
        let heading = update == nil
            ? "state changed after \(step), but no change was asserted (- expected, + actual):"
            : "state after \(step) is not what was asserted (- expected, + actual):"
        fail(heading + "\n" + StateDifference.render(expected: expected, actual: actual), fileID, file, line, column)
    }

    private func fail(
        _ message: String, _ fileID: StaticString, _ file: StaticString, _ line: UInt, _ column: UInt
    ) {
        reportFailure(TestFailure(message: message, fileID: fileID, filePath: file, line: line, column: column))
    }
}

/// Renders the difference between two states as a -/+ dump through their canonical JSON.
enum StateDifference {
    static func render<State: Encodable>(expected: State, actual: State) -> String {
        let encoder = CanonicalJSONEncoder()
        guard let old = try? encoder.encode(expected), let new = try? encoder.encode(actual) else {
            return "  - \(expected)\n  + \(actual)"
        }
        let difference = StateDiff(from: old, to: new)
        if difference.isEmpty { return "  (equal JSON; the states differ in a way JSON does not show)" }
        return difference.rendered() + "\n" + difference.summary
    }
}
