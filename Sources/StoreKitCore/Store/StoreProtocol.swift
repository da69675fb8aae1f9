/// What app code needs from a store: read the state, select from it, dispatch to it.
///
/// Write view models and other store-dependent types against `any StoreProtocol<State, Action>` so a test can
/// hand them a `MockStore` (from StoreKitTesting) instead of a ``Store``.
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
}

extension Store: StoreProtocol {}
