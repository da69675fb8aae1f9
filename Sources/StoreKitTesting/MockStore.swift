import Foundation
import StoreKitCore
import StoreKitReplay

/// A store double for testing code that uses a store: the test sets its state, overrides what selectors return,
/// and inspects the actions dispatched to it.
///
/// ```swift
/// let store = MockStore<AppState, AppAction>(initialState: AppState(greeting: "Hi Steve!"))
/// store.overrideSelector(Selectors.greeting, value: "Hi Bob!")
/// let viewModel = GreetingViewModel(store: store)
/// #expect(viewModel.greeting == "Hi Bob!")
/// viewModel.tapWave()
/// #expect(try await store.waitForActions(count: 1) == [.waved])
/// ```
///
/// Without a reducer the state only changes through ``setState(_:)``; with one, dispatched actions are reduced
/// too. Pass a ``TestClock`` to stamp each dispatched action with the virtual time it was dispatched at.
///
/// Observers (``observe(_:)``, ``values(of:)``, the same API as `Store`'s) are told on every ``setState(_:)`` and
/// every ``dispatch(_:)``, so a view model that observes its store can be tested against a mock:
/// ```swift
/// let store = MockStore<AppState, AppAction>(initialState: AppState(greeting: "Hi"))
/// let viewModel = GreetingViewModel(store: store)      // iterates store.values(of: Selectors.greeting)
/// store.setState(AppState(greeting: "Hello"))
/// ```
/// The state type need not be `Equatable`, so observers get every new state, changed or not; ``values(of:)``
/// yields only values that differ from the last, and honours selector overrides.
///
/// Effects a view model registers (``register(effect:)``) are kept, not started: ``runEffects(for:expecting:timeout:)``
/// runs them for an action when the test asks, dispatches what they send into the mock, and returns it.
public final class MockStore<State: Sendable, Action: Sendable>: EffectRegisteringStore, @unchecked Sendable {
    /// One dispatched action, with its sequence number and the virtual time of its dispatch.
    public struct Dispatched: Sendable {
        /// The action.
        public var action: Action
        /// 1, 2, 3 ...
        public var sequence: Int
        /// The test clock's time since its start when the action was dispatched (zero without a clock).
        public var time: Duration
    }

    /// Recursive, so an observer may read the state or dispatch from inside a notification.
    private let lock = NSRecursiveLock()
    private var current: State
    private var overrides: [ObjectIdentifier: any Sendable] = [:]
    private var observers: [UInt64: @Sendable (State) -> Void] = [:]
    private var nextObserverID: UInt64 = 0
    private var effects: [Effect<State, Action>] = []
    private let reducer: Reducer<State, Action>?
    private let clock: TestClock?
    private let uuid: UUIDGenerator
    private let random: RandomGenerator

    /// Every dispatched action; tests can wait on it or iterate it as an async sequence.
    public let dispatched = ActionLog<Dispatched>()

    /// Creates a mock store.
    /// - Parameters:
    ///   - initialState: The state until the test sets another.
    ///   - reducer: Optionally, a reducer to apply dispatched actions with.
    ///   - clock: Optionally, the clock whose time stamps dispatched actions.
    ///   - uuid: Where the effects ``runEffects(for:expecting:timeout:)`` runs take UUIDs from: by default the
    ///     count a ``TestStore`` draws, going on from one call to the next.
    ///   - random: Where those effects take random numbers from: by default a generator seeded with 0.
    public init(
        initialState: State, reducer: Reducer<State, Action>? = nil, clock: TestClock? = nil,
        uuid: UUIDGenerator = .incrementing, random: RandomGenerator = .seeded(0)
    ) {
        self.current = initialState
        self.reducer = reducer
        self.clock = clock
        self.uuid = uuid
        self.random = random
    }

    /// The current state.
    public var state: State { lock.withLock { current } }

    /// Replaces the state and tells the observers.
    public func setState(_ state: State) {
        lock.withLock {
            current = state
            notifyObservers()
        }
    }

    /// Makes `selector` return `value` whatever the state, until ``resetOverrides()``.
    public func overrideSelector<Value: Sendable>(_ selector: Selector<State, Value>, value: Value) {
        lock.withLock { overrides[selector.id] = value }
    }

    /// Removes every selector override.
    public func resetOverrides() {
        lock.withLock { overrides.removeAll() }
    }

    /// The overridden value of `selector`, or, when it is not overridden, what it selects from the current state.
    ///
    /// An override holds whatever value the test gave, `nil` included: a selector of an optional overridden with
    /// `nil` selects `nil`, and one that is not overridden selects from the state.
    public func select<Value>(_ selector: Selector<State, Value>) -> Value {
        let (override, state) = lock.withLock { (overrides[selector.id], current) }
        // Only a stored override counts: a missing one (`nil` of `(any Sendable)?`) would otherwise cast to any
        // optional `Value` as `nil`.
        if let override, let value = override as? Value { return value }
        return selector(state)
    }

    /// Records the action (and reduces it when the mock has a reducer), then tells the observers.
    @discardableResult
    public func dispatch(_ action: Action) -> Int {
        lock.withLock {
            if let reducer { reducer.reduce(&current, action) }
            let sequence = dispatched.count + 1
            dispatched.append(Dispatched(action: action, sequence: sequence, time: clock?.elapsed ?? .zero))
            notifyObservers()
            return sequence
        }
    }

    /// Calls `onChange` with the state after every ``setState(_:)`` and ``dispatch(_:)``, until the subscription
    /// is cancelled or released. Called on the calling thread, inside the call: return quickly.
    public func observe(_ onChange: @escaping @Sendable (State) -> Void) -> StoreSubscription {
        let id = lock.withLock {
            nextObserverID += 1
            observers[nextObserverID] = onChange
            return nextObserverID
        }
        return StoreSubscription { [weak self] in
            guard let self else { return }
            _ = lock.withLock { observers.removeValue(forKey: id) }
        }
    }

    /// The values `selector` selects (or its override): the current one first, then each one that differs from
    /// the last, after every ``setState(_:)`` and ``dispatch(_:)``.
    public func values<Value: Equatable & Sendable>(of selector: Selector<State, Value>) -> AsyncStream<Value> {
        // The value is selected through the mock, so an override counts; the state passed along is not needed.
        DistinctValues.stream(of: { [unowned self] _ in select(selector) }) { yieldIfNew in
            lock.withLock {
                yieldIfNew(current)
                return observe(yieldIfNew)
            }
        }
    }

    /// Keeps `effect`, in registration order, for ``runEffects(for:expecting:timeout:)``; dispatching to the mock
    /// never starts it.
    public func register(effect: Effect<State, Action>) {
        lock.withLock { effects.append(effect) }
    }

    /// Runs every registered effect once for `action`, with the mock's current state, dispatches each action they
    /// send into the mock (so ``dispatchedActions`` and observers see it) and returns them in the order sent.
    ///
    /// The effects run side by side and this returns when every one's work has returned; with `count`, it also
    /// waits (at most `timeout`) until that many actions were sent, for effects that send from work they start in
    /// the background. Actions the effects send do not run the effects again, as they would in a ``Store``.
    /// ```swift
    /// let mock = MockStore<Scoreboard.State, Scoreboard.Action>(initialState: Scoreboard.State())
    /// let viewModel = ScoreboardViewModel(store: mock)          // registers its "reset after posting" effect
    /// #expect(try await mock.runEffects(for: .scorePosted(receipt: 1)) == [.reset])
    /// ```
    /// - Throws: ``StoreTestingError/timedOut(_:)`` when `count` actions were not sent in time.
    public func runEffects(
        for action: Action, expecting count: Int? = nil, timeout: Duration = .seconds(5)
    ) async throws -> [Action] {
        let (registered, state) = lock.withLock { (effects, current) }
        let sent = ActionLog<Action>()
        let send = Send<Action> { [self] answer in
            sent.append(answer)
            dispatch(answer)
        }
        await withTaskGroup(of: Void.self) { group in
            for effect in registered {
                group.addTask { [uuid, random] in
                    await effect.perform(action, state: state, send: send, uuid: uuid, random: random)
                }
            }
        }
        guard let count else { return sent.all }
        return try await sent.wait(forCount: count, timeout: timeout)
    }

    /// Calls every observer with the current state; call with the lock held.
    private func notifyObservers() {
        for observer in observers.values { observer(current) }
    }

    /// Every dispatched action, in order.
    public var dispatchedActions: [Action] { dispatched.all.map(\.action) }

    /// Waits until `count` actions were dispatched and returns them.
    /// - Throws: ``StoreTestingError/timedOut(_:)`` after `timeout`, naming what did arrive.
    public func waitForActions(count: Int, timeout: Duration = .seconds(5)) async throws -> [Action] {
        try await dispatched.wait(forCount: count, timeout: timeout).map(\.action)
    }
}
