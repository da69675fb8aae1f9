import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// A test store in the style of The Composable Architecture: every action sent, every action an effect dispatches
/// and every state change is asserted, step by step.
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
/// A mismatch is recorded at the line of the `send`, `receive` or `finish` (never thrown), names the store step
/// (`step 7: …`), prints actions compactly (`path(.element(id: 1, action: .saveTapped))`, see
/// `CompactDescription`) and shows a -/+ diff of the expected and the actual state.
///
/// `receive` takes the expected action, a case (`receive(Scoreboard.Action.scorePosted)`) or a predicate
/// (`receive(where:)`); with a ``RegisteredAction`` store, also a registered type (`receive(DidFetchTodos.self)`),
/// and `send` and `receive` take a registered type's value without wrapping (`send(AddTodo(title: "Milk"))`). With ``Exhaustivity/off`` a test asserts only what it cares about: unasserted state changes
/// and received actions pass, and `receive` skips actions until one matches. ``finish(timeout:fileID:file:line:column:)``
/// fails for effects still running (naming each one and the step that started it) and, when exhaustive, for
/// effect actions never received.
public final class TestStore<State: Codable & Equatable & Sendable, Action: Codable & Equatable & Sendable>:
    @unchecked Sendable
{
    private typealias Change = TestInterceptor<State, Action>.StateChange

    /// Where in the test an assertion was written.
    private struct CallSite {
        let fileID: StaticString
        let file: StaticString
        let line: UInt
        let column: UInt
    }

    private let store: Store<State, Action>
    private let interceptor = TestInterceptor<State, Action>()
    private let reportFailure: @Sendable (TestFailure) -> Void
    private var handled = 0

    /// The state after the last step the test handled.
    public private(set) var state: State

    /// How much the test must assert; changeable between steps.
    public var exhaustivity: Exhaustivity

    /// How long a `receive` waits for an action when it names no timeout of its own.
    public var receiveTimeout: Duration

    /// Creates a test store over a real ``Store``.
    /// - Parameters:
    ///   - initialState: The state before the first action.
    ///   - reducer: The reducer under test.
    ///   - effects: The effects under test, with their test doubles.
    ///   - clock: The clock the effects read and sleep on through their context (`EffectContext.clock`); a test
    ///     passes one it advances itself.
    ///   - uuid: Where the effects take new UUIDs from (`EffectContext.uuid()`): by default
    ///     `00000000-0000-0000-0000-000000000000`, then `…0001` and so on, so a test can assert them.
    ///   - random: Where the effects take random numbers from (`EffectContext.random(in:)`): by default a generator
    ///     seeded with 0, so every run of a test draws the same numbers.
    ///   - exhaustivity: How much the test must assert.
    ///   - receiveTimeout: How long a `receive` waits by default.
    ///   - reportFailure: Where failures go; by default the running test framework.
    public init(
        initialState: State, reducer: Reducer<State, Action>, effects: [Effect<State, Action>] = [],
        clock: any Clock<Duration> = ContinuousClock(), uuid: UUIDGenerator = .incrementing,
        random: RandomGenerator = .seeded(0), exhaustivity: Exhaustivity = .on,
        receiveTimeout: Duration = .seconds(5),
        reportFailure: @escaping @Sendable (TestFailure) -> Void = TestFailure.reportToTestFramework
    ) {
        self.state = initialState
        self.exhaustivity = exhaustivity
        self.receiveTimeout = receiveTimeout
        self.reportFailure = reportFailure
        self.store = Store(
            initialState: initialState, reducer: reducer, effects: effects, clock: clock, uuid: uuid, random: random)
        store.register(interceptor: interceptor)
    }

    /// Sends an action from "the user" and asserts how the state changed.
    /// - Parameters:
    ///   - action: The action.
    ///   - update: Mutates the previous state into the expected one; omit it only when the state must not change
    ///     (or, non-exhaustively, when the test does not care).
    public func send(
        _ action: Action, assert update: ((inout State) -> Void)? = nil,
        fileID: StaticString = #fileID, file: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        let site = CallSite(fileID: fileID, file: file, line: line, column: column)
        let step = store.dispatch(action)
        let changes = interceptor.stateChanges
        // The interceptor runs inside `dispatch`, so the sent action's change is in the log by now.
        guard let index = changes.firstIndex(where: { $0.context.sequence == step }) else {
            preconditionFailure("TestStore: the store applied step \(step) without telling its interceptor")
        }
        let sent = "send(\(CompactDescription(action)))"
        let unreceived = Array(changes[handled..<index])
        if !unreceived.isEmpty {
            let list = Self.list(unreceived)
            switch exhaustivity {
            case .on:
                report(
                    "\(sent) came before \(Self.count(unreceived)) dispatched by effects "
                        + "\(unreceived.count == 1 ? "was" : "were") received: \(list)", step: step, site)
            case .off(let showSkipped):
                if showSkipped { report("skipped received \(list) before \(sent)", step: step, site, severity: .note) }
            }
        }
        handled = index + 1
        check(changes[index], after: sent, update, site)
    }

    /// Waits for the next action an effect dispatched, checks it is `expected`, and asserts the state change.
    /// - Parameters:
    ///   - expected: The action.
    ///   - timeout: How long to wait; ``receiveTimeout`` when nil.
    ///   - update: Mutates the previous state into the expected one.
    public func receive(
        _ expected: Action, timeout: Duration? = nil, assert update: ((inout State) -> Void)? = nil,
        fileID: StaticString = #fileID, file: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        await receive(
            "\(CompactDescription(expected))", timeout: timeout, matching: { $0 == expected }, update,
            CallSite(fileID: fileID, file: file, line: line, column: column))
    }

    /// Waits for the next action an effect dispatched, checks it is of the case `casePath` builds, whatever its
    /// payload, and asserts the state change: `await store.receive(Scoreboard.Action.scorePosted) { … }`.
    /// - Parameters:
    ///   - casePath: The case's constructor (`Action.scorePosted`, `Action.path`).
    ///   - timeout: How long to wait; ``receiveTimeout`` when nil.
    ///   - update: Mutates the previous state into the expected one.
    public func receive<Payload>(
        _ casePath: @escaping (Payload) -> Action, timeout: Duration? = nil,
        assert update: ((inout State) -> Void)? = nil,
        fileID: StaticString = #fileID, file: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        await receive(
            "an action of the case taking \(Payload.self)", timeout: timeout,
            matching: { Self.action($0, isOfCase: casePath) }, update,
            CallSite(fileID: fileID, file: file, line: line, column: column))
    }

    /// Waits for the next action an effect dispatched, checks that `predicate` accepts it, and asserts the state
    /// change: `await store.receive(where: { if case .path(.element(_, .timerTick)) = $0 { true } else { false } })`.
    /// - Parameters:
    ///   - predicate: Whether an action is the one expected.
    ///   - timeout: How long to wait; ``receiveTimeout`` when nil.
    ///   - update: Mutates the previous state into the expected one.
    public func receive(
        where predicate: @escaping (Action) -> Bool, timeout: Duration? = nil,
        assert update: ((inout State) -> Void)? = nil,
        fileID: StaticString = #fileID, file: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        await receive(
            "an action the predicate accepts", timeout: timeout, matching: predicate, update,
            CallSite(fileID: fileID, file: file, line: line, column: column))
    }

    /// Sends a value of a registered action type from "the user", wrapped in the store's ``RegisteredAction``, and
    /// asserts how the state changed: `await store.send(AddTodo(title: "Milk")) { $0.todos = ["Milk"] }`.
    /// - Parameters:
    ///   - action: The action.
    ///   - update: Mutates the previous state into the expected one.
    public func send<Registry, Wrapped: Codable & Sendable>(
        _ action: Wrapped, assert update: ((inout State) -> Void)? = nil,
        fileID: StaticString = #fileID, file: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async where Action == RegisteredAction<Registry> {
        await send(RegisteredAction(action), assert: update, fileID: fileID, file: file, line: line, column: column)
    }

    /// Waits for the next action an effect dispatched, checks it is `expected` (a value of a registered action
    /// type), and asserts the state change: `await store.receive(DidFetchTodos(todos: ["Milk"])) { … }`.
    /// - Parameters:
    ///   - expected: The action.
    ///   - timeout: How long to wait; ``receiveTimeout`` when nil.
    ///   - update: Mutates the previous state into the expected one.
    public func receive<Registry, Wrapped: Codable & Sendable>(
        _ expected: Wrapped, timeout: Duration? = nil, assert update: ((inout State) -> Void)? = nil,
        fileID: StaticString = #fileID, file: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async where Action == RegisteredAction<Registry> {
        await receive(
            RegisteredAction(expected), timeout: timeout, assert: update, fileID: fileID, file: file, line: line,
            column: column)
    }

    /// Waits for the next action an effect dispatched, checks it is of the registered type `type`, and asserts the
    /// state change: `await store.receive(DidFetchTodos.self) { $0.todos = ["Milk"] }`. A failure names the type
    /// waited for.
    /// - Parameters:
    ///   - type: The action type.
    ///   - timeout: How long to wait; ``receiveTimeout`` when nil.
    ///   - update: Mutates the previous state into the expected one.
    public func receive<Registry, Wrapped>(
        _ type: Wrapped.Type, timeout: Duration? = nil, assert update: ((inout State) -> Void)? = nil,
        fileID: StaticString = #fileID, file: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async where Action == RegisteredAction<Registry> {
        await receive(
            "an action of type \(Wrapped.self)", timeout: timeout, matching: { $0.is(Wrapped.self) }, update,
            CallSite(fileID: fileID, file: file, line: line, column: column))
    }

    /// Waits for the next action an effect dispatched, checks it is of the registered type `type` and that
    /// `predicate` accepts it, and asserts the state change:
    /// `await store.receive(DidFetchTodos.self, where: { $0.todos.count == 2 }) { … }`.
    /// - Parameters:
    ///   - type: The action type.
    ///   - predicate: Whether an action of that type is the one expected.
    ///   - timeout: How long to wait; ``receiveTimeout`` when nil.
    ///   - update: Mutates the previous state into the expected one.
    public func receive<Registry, Wrapped>(
        _ type: Wrapped.Type, where predicate: @escaping (Wrapped) -> Bool, timeout: Duration? = nil,
        assert update: ((inout State) -> Void)? = nil,
        fileID: StaticString = #fileID, file: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async where Action == RegisteredAction<Registry> {
        await receive(
            "an action of type \(Wrapped.self) that the predicate accepts", timeout: timeout,
            matching: { action in action.as(Wrapped.self).map(predicate) ?? false }, update,
            CallSite(fileID: fileID, file: file, line: line, column: column))
    }

    /// Accepts the actions effects dispatched without asserting them, and moves the asserted state to the state
    /// after the last of them.
    ///
    /// First lets running effects end, at most ``receiveTimeout`` (a long-running effect, such as a timer, is no
    /// failure here: it just makes this wait that long), then skips every action received so far. Actions that
    /// arrive later still have to be received.
    public func skipReceivedActions(
        fileID: StaticString = #fileID, file: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        do {
            try await store.waitForEffects(timeout: receiveTimeout)
        } catch {
            // Effects still running are allowed here (documented): what they send later must be received.
        }
        let changes = interceptor.stateChanges
        let skipped = Array(changes.dropFirst(handled))
        guard let last = skipped.last else { return }
        if exhaustivity == .off(showSkippedAssertions: true) {
            report(
                "skipped received \(Self.list(skipped))", step: last.context.sequence,
                CallSite(fileID: fileID, file: file, line: line, column: column), severity: .note)
        }
        handled = changes.count
        state = last.newState
    }

    /// Waits for running effects, at most `timeout`, and fails naming each effect still running (its name, and the
    /// step and action that started it; they are then cancelled), and, when exhaustive, for every effect action
    /// that was never received.
    public func finish(
        timeout: Duration = .seconds(5),
        fileID: StaticString = #fileID, file: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        let site = CallSite(fileID: fileID, file: file, line: line, column: column)
        do {
            try await store.waitForEffects(timeout: timeout)
        } catch {
            report("\(error)", step: lastStep, after: true, site)
            store.cancelEffects()
            do {
                try await store.waitForEffects(timeout: timeout)
            } catch {
                report("cancelled, but \(error)", step: lastStep, after: true, site)
            }
        }
        let unreceived = Array(interceptor.stateChanges.dropFirst(handled))
        guard !unreceived.isEmpty else { return }
        switch exhaustivity {
        case .on:
            report(
                "\(Self.count(unreceived)) dispatched by effects \(unreceived.count == 1 ? "was" : "were") never "
                    + "received: \(Self.list(unreceived))",
                step: lastStep, after: true, site)
        case .off(let showSkipped):
            if showSkipped {
                report("skipped received \(Self.list(unreceived))", step: lastStep, after: true, site, severity: .note)
            }
        }
    }

    private func receive(
        _ expected: String, timeout: Duration?, matching: (Action) -> Bool, _ update: ((inout State) -> Void)?,
        _ site: CallSite
    ) async {
        let timeout = timeout ?? receiveTimeout
        let deadline = ContinuousClock.now + timeout
        var skipped: [Change] = []
        var index = handled
        while true {
            guard let change = await change(at: index, before: deadline) else {
                let arrived = skipped.isEmpty ? "no action arrived" : "only \(Self.list(skipped)) arrived"
                report(
                    "expected to receive \(expected) within \(timeout), but \(arrived)", step: lastStep, after: true,
                    site)
                return
            }
            index += 1
            let received = "receive(\(CompactDescription(change.action)))"
            if matching(change.action) {
                if !skipped.isEmpty, exhaustivity == .off(showSkippedAssertions: true) {
                    report(
                        "skipped received \(Self.list(skipped)) before \(received)", step: change.context.sequence,
                        site, severity: .note)
                }
                handled = index
                check(change, after: received, update, site)
                return
            }
            if exhaustivity == .on {
                handled = index
                state = change.newState
                report(
                    "received an unexpected action\n  - expected  \(expected)\n  + received  \(CompactDescription(change.action))",
                    step: change.context.sequence, site)
                return
            }
            skipped.append(change)
        }
    }

    /// The change at `index` in the log, waiting for it until `deadline`; nil when it did not arrive in time.
    private func change(at index: Int, before deadline: ContinuousClock.Instant) async -> Change? {
        do {
            return try await interceptor.log.wait(
                forCount: index + 1, timeout: ContinuousClock.now.duration(to: deadline))[index]
        } catch {
            return nil
        }
    }

    /// Compares the state after `change` with what the test asserted, and moves the asserted state on.
    private func check(_ change: Change, after step: String, _ update: ((inout State) -> Void)?, _ site: CallSite) {
        defer { state = change.newState }
        let actual = change.newState
        var expected = exhaustivity == .on ? state : change.oldState
        update?(&expected)
        if expected == actual { return }
        let sequence = change.context.sequence
        switch exhaustivity {
        case .on:
            let heading =
                update == nil
                ? "state changed after \(step), but no change was asserted (- expected, + actual):"
                : "state after \(step) is not what was asserted (- expected, + actual):"
            report(heading + "\n" + StateDifference.render(expected: expected, actual: actual), step: sequence, site)
        case .off(let showSkipped):
            // What the test asserted, applied to the actual state: only a field it set differently is a failure.
            var asserted = actual
            update?(&asserted)
            if asserted != actual {
                report(
                    "state after \(step) is not what was asserted (- expected, + actual):\n"
                        + StateDifference.render(expected: asserted, actual: actual), step: sequence, site)
            } else if showSkipped {
                report(
                    "state after \(step) changed beyond what was asserted (- asserted, + actual):\n"
                        + StateDifference.render(expected: expected, actual: actual), step: sequence, site,
                    severity: .note)
            }
        }
    }

    /// The last step the store applied (0 before any).
    private var lastStep: Int { interceptor.stateChanges.last?.context.sequence ?? 0 }

    /// The store, its last step and where failures go, for the in-flight effect controls (TestStore+Effects.swift).
    var effectControl: EffectControl { EffectControl(store: store, lastStep: lastStep, reportFailure: reportFailure) }

    /// Reports `message` about `step` (`step 7: …`), or about what happened after it (`after step 7: …`).
    private func report(
        _ message: String, step: Int, after: Bool = false, _ site: CallSite, severity: TestFailure.Severity = .failure
    ) {
        reportFailure(
            TestFailure(
                message: "\(after ? "after step" : "step") \(step): \(message)", fileID: site.fileID,
                filePath: site.file, line: site.line, column: site.column, step: step, severity: severity))
    }

    /// `step 3 saved(receipt: 7), step 4 timerTick`.
    private static func list(_ changes: [Change]) -> String {
        changes.map { "step \($0.context.sequence) \(CompactDescription($0.action))" }.joined(separator: ", ")
    }

    /// `1 action`, `2 actions`.
    private static func count(_ changes: [Change]) -> String {
        "\(changes.count) action\(changes.count == 1 ? "" : "s")"
    }

    /// Whether `action` is of the case `casePath` builds: its payload, rebuilt by `casePath`, is `action` again.
    private static func action<Payload>(_ action: Action, isOfCase casePath: (Payload) -> Action) -> Bool {
        guard let payload = Mirror(reflecting: action).children.first?.value else { return false }
        if let typed = payload as? Payload { return casePath(typed) == action }
        // A single labeled payload (`saved(receipt: 7)`) reflects as a one-element tuple around the value.
        let wrapper = Mirror(reflecting: payload)
        guard wrapper.displayStyle == .tuple, wrapper.children.count == 1,
            let typed = wrapper.children.first?.value as? Payload
        else { return false }
        return casePath(typed) == action
    }
}

/// Renders the difference between two states as a -/+ dump through their canonical JSON.
enum StateDifference {
    static func render<State: Encodable>(expected: State, actual: State) -> String {
        // With the state type's notes, dictionaries compare as maps and dates and durations read as such.
        let encoder = CanonicalJSONEncoder()
        var typeNotes = EncodedTypeNotes()
        guard let old = try? JSONValue(parsing: encoder.encodeToBytes(expected, typeNotes: &typeNotes)),
            let new = try? JSONValue(parsing: encoder.encodeToBytes(actual, typeNotes: &typeNotes))
        else {
            return "  - \(expected)\n  + \(actual)"
        }
        let difference = StateDiff(from: old, to: new, typeNotes: typeNotes)
        if difference.isEmpty { return "  (equal JSON; the states differ in a way JSON does not show)" }
        return difference.rendered() + "\n" + difference.summary
    }
}
