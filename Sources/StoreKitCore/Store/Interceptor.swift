/// Something that watches every action a ``Store`` applies, in the order the store applies them.
///
/// A store calls ``actionDispatched(_:oldState:newState:context:)`` once per action, after the reducer has run and
/// the new state is visible, and before effects see the action. Calls for one store never overlap and arrive in
/// the store's single total order of actions.
///
/// > Warning: The store calls interceptors while it holds its dispatch lock. An interceptor must return quickly
/// > and must not block; hand heavy work (encoding, I/O) to another thread, as ``SessionRecorder`` does.
/// > Dispatching from an interceptor is allowed: the action is applied after the current one finishes.
public protocol Interceptor<State, Action>: Sendable {
    /// The state type of the store this interceptor is registered on.
    associatedtype State
    /// The action type of the store this interceptor is registered on.
    associatedtype Action

    /// Called for each action the store applied.
    /// - Parameters:
    ///   - action: The action that was applied.
    ///   - oldState: The state before the reducer ran.
    ///   - newState: The state after the reducer ran.
    ///   - context: Where the action came from, its sequence number in the store and when it was dispatched.
    func actionDispatched(_ action: Action, oldState: State, newState: State, context: DispatchContext)
}

/// What a store knows about one applied action besides the action itself.
public struct DispatchContext: Sendable, Hashable {
    /// Where an action came from.
    public enum Origin: Sendable, Hashable {
        /// Dispatched by app code (a view, a view model, a test).
        case app
        /// Dispatched by an effect reacting to the action with sequence number `cause`.
        case effect(cause: Int)
    }

    /// The action's position in the store's total order, starting at 1.
    public var sequence: Int
    /// Where the action came from.
    public var origin: Origin
    /// Monotonic time of the dispatch, in nanoseconds since the store was created.
    public var uptimeNanoseconds: UInt64
    /// The name of the effect that sent the action, when an effect did.
    public var effect: String?

    /// Creates a dispatch context.
    public init(sequence: Int, origin: Origin, uptimeNanoseconds: UInt64, effect: String? = nil) {
        self.sequence = sequence
        self.origin = origin
        self.uptimeNanoseconds = uptimeNanoseconds
        self.effect = effect
    }
}
