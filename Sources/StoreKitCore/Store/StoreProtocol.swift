/// What app code needs from a store: read the state, select from it, dispatch to it, and observe it.
///
/// Write view models and other store-dependent types against `any StoreProtocol<State, Action>` so a test can
/// hand them a `MockStore` (from StoreKitTesting) instead of a ``Store``; both notify observers the same way.
public protocol StoreProtocol<State, Action>: AnyObject, Sendable {
    /// The state type.
    associatedtype State
    /// The action type.
    associatedtype Action

    /// The current state.
    var state: State { get }

    /// Dispatches `action` and returns its sequence number.
    @discardableResult
    func dispatch(_ action: Action) -> Int

    /// The value `selector` selects from the current state.
    func select<Value>(_ selector: Selector<State, Value>) -> Value

    /// Calls `onChange` with each new state, until the subscription is cancelled or released; called on the
    /// thread that changed the state, inside the change: return quickly.
    func observe(_ onChange: @escaping @Sendable (State) -> Void) -> StoreSubscription

    /// The values `selector` selects: the current one first, then each one that differs from the last.
    func values<Value: Equatable & Sendable>(of selector: Selector<State, Value>) -> AsyncStream<Value>
}

extension Store: StoreProtocol {}
