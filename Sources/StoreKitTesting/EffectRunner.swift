import StoreKitCore
import StoreKitReplay

/// Runs a reducer and its effects on a ``TestClock``: timed actions in, the states (and every applied action, an
/// effect's too) out, each at the virtual time it happened (what RxSwift's `TestScheduler` gives a UDF store).
///
/// ```swift
/// let clock = TestClock()
/// let runner = EffectRunner(
///     initialState: Rehearsal.State(), reducer: Rehearsal.reducer, effects: [Rehearsal.timer(on: clock)], clock: clock)
/// let run = await runner.run([Timed(at: .zero, .startTapped), Timed(at: .seconds(3), .stopTapped)])
/// #expect(run.states.map(\.time) == [.zero, .seconds(1), .seconds(2), .seconds(3), .seconds(3)])
/// ```
///
/// Each run builds a fresh ``Store`` over the runner's clock. For each action in time order, the clock advances to
/// the action's time (waking the effects due by then, each at its own deadline, as ``TestClock/advance(to:)`` does),
/// then the action is dispatched; after the last one the clock advances to the end of the run. Effects still running
/// then, such as a timer nobody stopped, are cancelled and listed in ``Run/cancelled``: a run always ends. Work that
/// waits on something other than the clock is waited for only as ``TestClock`` waits for quiet.
///
/// The clock's time carries over from one run to the next: give each run its own clock (and effects built on it)
/// when the times should start at zero. So do the UUIDs and random numbers the effects draw (by default the count
/// and the numbers seeded with 0 that a ``TestStore`` draws).
public struct EffectRunner<State: Codable & Equatable & Sendable, Action: Codable & Sendable>: Sendable {
    /// What one run saw.
    public struct Run: Sendable {
        /// The state after each applied action, in order, at the time it was applied.
        public var states: [Timed<State>]
        /// Each applied action, the test's and the effects', in order, at the time it was applied.
        public var actions: [Timed<Action>]
        /// The effects still running at the end of the run, which the runner cancelled.
        public var cancelled: [RunningEffect]
    }

    private let initialState: State
    private let reducer: Reducer<State, Action>
    private let effects: [Effect<State, Action>]
    private let clock: TestClock
    private let uuid: UUIDGenerator
    private let random: RandomGenerator
    private let cancelTimeout: Duration

    /// Creates a runner.
    /// - Parameters:
    ///   - initialState: The state before the first action.
    ///   - reducer: The reducer under test.
    ///   - effects: The effects under test; those that sleep do it on `clock`, through their context
    ///     (`EffectContext.clock`) or by being built with it.
    ///   - clock: The clock the run advances.
    ///   - uuid: Where the effects take UUIDs from (`EffectContext.uuid()`); by default a count from
    ///     `00000000-0000-0000-0000-000000000000`.
    ///   - random: Where the effects take random numbers from (`EffectContext.random(in:)`); by default a generator
    ///     seeded with 0.
    ///   - cancelTimeout: How long the effects cancelled at the end of a run may take to end.
    public init(
        initialState: State, reducer: Reducer<State, Action>, effects: [Effect<State, Action>] = [],
        clock: TestClock, uuid: UUIDGenerator = .incrementing, random: RandomGenerator = .seeded(0),
        cancelTimeout: Duration = .seconds(5)
    ) {
        self.initialState = initialState
        self.reducer = reducer
        self.effects = effects
        self.clock = clock
        self.uuid = uuid
        self.random = random
        self.cancelTimeout = cancelTimeout
    }

    /// Dispatches each action at its time and returns what happened until `end`.
    /// - Parameters:
    ///   - events: The test's actions, each at its time since the clock's start; equal times keep their order.
    ///   - end: How long the run lasts, from the clock's start; the time of the last action when `nil`.
    /// - Returns: The states and actions the run saw, and the effects it cancelled at the end.
    public func run(_ events: [Timed<Action>], until end: Duration? = nil) async -> Run {
        let store = Store(
            initialState: initialState, reducer: reducer, effects: effects, clock: clock, uuid: uuid, random: random)
        let seen = ActionLog<Timed<TestInterceptor<State, Action>.StateChange>>()
        store.register(interceptor: TimedInterceptor(clock: clock, log: seen))
        let ordered = events.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
        for event in ordered.map(\.element) {
            await clock.advance(to: TestClock.Instant(offset: event.time))
            store.dispatch(event.value)
        }
        await clock.advance(to: TestClock.Instant(offset: end ?? ordered.last?.element.time ?? clock.elapsed))
        // An effect that ignores its cancellation is left running; the run names it among the cancelled.
        let cancelled = await store.endRunningEffects(timeout: cancelTimeout).cancelled
        let changes = seen.all
        return Run(
            states: changes.map { Timed(at: $0.time, $0.value.newState) },
            actions: changes.map { Timed(at: $0.time, $0.value.action) }, cancelled: cancelled)
    }

    /// Dispatches `actions` one after another at the clock's current time and returns the state after each applied
    /// action (the effects' too): the untimed form of ``run(_:until:)``.
    public func states(after actions: [Action]) async -> [State] {
        let now = clock.elapsed
        return await run(actions.map { Timed(at: now, $0) }).states.map(\.value)
    }
}

/// Keeps every applied action and state change with the test clock's time at its dispatch.
private struct TimedInterceptor<State: Sendable, Action: Sendable>: Interceptor {
    let clock: TestClock
    let log: ActionLog<Timed<TestInterceptor<State, Action>.StateChange>>

    func actionDispatched(_ action: Action, oldState: State, newState: State, context: DispatchContext) {
        log.append(
            Timed(
                at: clock.elapsed,
                TestInterceptor<State, Action>.StateChange(
                    action: action, oldState: oldState, newState: newState, context: context)))
    }
}
