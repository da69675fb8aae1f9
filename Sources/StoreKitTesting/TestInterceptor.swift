import StoreKitCore
import StoreKitReplay

/// An interceptor that keeps every action a real store applies and every state change, in order.
///
/// ```swift
/// let interceptor = TestInterceptor<AppState, AppAction>()
/// let store = Store(initialState: AppState(), reducer: appReducer, interceptors: [interceptor])
/// view.updateGreeting()
/// #expect(interceptor.stateChanges.count == 1)
/// ```
public final class TestInterceptor<State: Sendable, Action: Sendable>: Interceptor, Sendable {
    /// One applied action with the state before and after it.
    public struct StateChange: Sendable {
        /// The action.
        public var action: Action
        /// The state before the reducer ran.
        public var oldState: State
        /// The state after it.
        public var newState: State
        /// Sequence number, origin and time.
        public var context: DispatchContext
    }

    /// Every change so far; tests can wait on it.
    public let log = ActionLog<StateChange>()

    /// Creates an empty interceptor.
    public init() {}

    /// Records the change.
    public func actionDispatched(_ action: Action, oldState: State, newState: State, context: DispatchContext) {
        log.append(StateChange(action: action, oldState: oldState, newState: newState, context: context))
    }

    /// Every applied action, in order.
    public var actions: [Action] { log.all.map(\.action) }

    /// Every state change, in order.
    public var stateChanges: [StateChange] { log.all }

    /// Waits until `count` actions were applied and returns them.
    /// - Throws: ``StoreTestingError/timedOut(_:)`` after `timeout`.
    public func waitForActions(count: Int, timeout: Duration = .seconds(5)) async throws -> [Action] {
        try await log.wait(forCount: count, timeout: timeout).map(\.action)
    }
}
