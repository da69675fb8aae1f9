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
public final class MockStore<State: Sendable, Action: Sendable>: StoreProtocol, @unchecked Sendable {
    /// One dispatched action, with its sequence number and the virtual time of its dispatch.
    public struct Dispatched: Sendable {
        /// The action.
        public var action: Action
        /// 1, 2, 3 ...
        public var sequence: Int
        /// The test clock's time since its start when the action was dispatched (zero without a clock).
        public var time: Duration
    }

    private let lock = NSLock()
    private var current: State
    private var overrides: [ObjectIdentifier: any Sendable] = [:]
    private let reducer: Reducer<State, Action>?
    private let clock: TestClock?

    /// Every dispatched action; tests can wait on it or iterate it as an async sequence.
    public let dispatched = ActionLog<Dispatched>()

    /// Creates a mock store.
    /// - Parameters:
    ///   - initialState: The state until the test sets another.
    ///   - reducer: Optionally, a reducer to apply dispatched actions with.
    ///   - clock: Optionally, the clock whose time stamps dispatched actions.
    public init(initialState: State, reducer: Reducer<State, Action>? = nil, clock: TestClock? = nil) {
        self.current = initialState
        self.reducer = reducer
        self.clock = clock
    }

    /// The current state.
    public var state: State { lock.withLock { current } }

    /// Replaces the state.
    public func setState(_ state: State) {
        lock.withLock { current = state }
    }

    /// Makes `selector` return `value` whatever the state, until ``resetOverrides()``.
    public func overrideSelector<Value: Sendable>(_ selector: Selector<State, Value>, value: Value) {
        lock.withLock { overrides[selector.id] = value }
    }

    /// Removes every selector override.
    public func resetOverrides() {
        lock.withLock { overrides.removeAll() }
    }

    /// The overridden value of `selector`, or what it selects from the state.
    public func select<Value>(_ selector: Selector<State, Value>) -> Value {
        let (override, state) = lock.withLock { (overrides[selector.id], current) }
        if let value = override as? Value { return value }
        return selector(state)
    }

    /// Records the action (and reduces it when the mock has a reducer).
    @discardableResult
    public func dispatch(_ action: Action) -> Int {
        let sequence = lock.withLock {
            if let reducer { reducer.reduce(&current, action) }
            return dispatched.count + 1
        }
        dispatched.append(Dispatched(action: action, sequence: sequence, time: clock?.elapsed ?? .zero))
        return sequence
    }

    /// Every dispatched action, in order.
    public var dispatchedActions: [Action] { dispatched.all.map(\.action) }

    /// Waits until `count` actions were dispatched and returns them.
    /// - Throws: ``StoreTestingError/timedOut(_:)`` after `timeout`, naming what did arrive.
    public func waitForActions(count: Int, timeout: Duration = .seconds(5)) async throws -> [Action] {
        try await dispatched.wait(forCount: count, timeout: timeout).map(\.action)
    }
}
