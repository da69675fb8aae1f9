/// A store that takes effects after it was created: ``StoreProtocol`` and ``register(effect:)``.
///
/// Write a view model that adds an effect of its own (as ReCombine's view models register theirs) against
/// `any EffectRegisteringStore<State, Action>`: the app hands it a ``Store``, which starts the effect for every
/// action from then on, and a test hands it a `MockStore` (from StoreKitTesting), which keeps the effect and runs it
/// when the test asks (`runEffects(for:)`).
///
/// ```swift
/// init(store: any EffectRegisteringStore<Scoreboard.State, Scoreboard.Action>) {
///     store.register(effect: .dispatchingOne("reset after posting") { action, _ in
///         guard case .scorePosted = action else { return nil }
///         return .reset
///     })
/// }
/// ```
/// It is a protocol of its own rather than a requirement of ``StoreProtocol``, whose state and action types need not
/// be `Sendable` as an ``Effect``'s must, so existing conformances of ``StoreProtocol`` keep compiling.
public protocol EffectRegisteringStore<State, Action>: StoreProtocol where State: Sendable, Action: Sendable {
    /// Adds an effect for the actions applied from now on.
    func register(effect: Effect<State, Action>)
}

extension Store: EffectRegisteringStore {}
