/// Asynchronous work that reacts to actions and may dispatch new ones: a network call, a timer, persistence.
///
/// The store starts every registered effect for every action, after the reducer and the interceptors ran, in a
/// `Task`, with the action and the state after it. Actions an effect sends are dispatched like any other, marked
/// as coming from an effect and naming the action that caused them, so a recording holds them and replay never
/// needs to run effects.
///
/// ```swift
/// let postScore = Effect<Scoreboard.State, Scoreboard.Action>.dispatchingOne { action, state in
///     guard case .homeScored = action else { return nil }
///     return .scorePosted(receipt: try? await api.post(state.home, state.away))
/// }
/// ```
public struct Effect<State: Sendable, Action: Sendable>: Sendable {
    /// A name for logs and test failures.
    public let name: String
    private let work: @Sendable (_ action: Action, _ state: State, _ send: Send<Action>) async -> Void

    /// Creates an effect from its full form: it gets every action, the state after it, and a way to send actions.
    /// - Parameters:
    ///   - name: A name for logs and test failures.
    ///   - run: The work; it may send any number of actions, at any time before it returns.
    public init(
        _ name: String = "effect",
        run: @escaping @Sendable (_ action: Action, _ state: State, _ send: Send<Action>) async -> Void
    ) {
        self.name = name
        self.work = run
    }

    /// Runs the effect once for `action` and `state`, sending what it dispatches to `send`; returns when the
    /// effect's work returns. The store calls this; tests can too (StoreKitTesting's `run(with:state:)` does).
    public func perform(_ action: Action, state: State, send: Send<Action>) async {
        await work(action, state, send)
    }

    /// An effect that answers an action with at most one action (`nil` for none).
    public static func dispatchingOne(
        _ name: String = "effect", _ body: @escaping @Sendable (_ action: Action, _ state: State) async -> Action?
    ) -> Effect {
        Effect(name) { action, state, send in
            if let answer = await body(action, state) { send(answer) }
        }
    }

    /// An effect that answers an action with any number of actions, dispatched in order.
    public static func dispatchingMultiple(
        _ name: String = "effect", _ body: @escaping @Sendable (_ action: Action, _ state: State) async -> [Action]
    ) -> Effect {
        Effect(name) { action, state, send in
            for answer in await body(action, state) { send(answer) }
        }
    }

    /// An effect that never dispatches, such as logging or persistence.
    public static func nonDispatching(
        _ name: String = "effect", _ body: @escaping @Sendable (_ action: Action, _ state: State) async -> Void
    ) -> Effect {
        Effect(name) { action, state, _ in await body(action, state) }
    }
}

/// How an effect dispatches actions back into its store.
public struct Send<Action: Sendable>: Sendable {
    let dispatch: @Sendable (Action) -> Void

    /// Creates a sender from a dispatch function (test support builds its own).
    public init(_ dispatch: @escaping @Sendable (Action) -> Void) {
        self.dispatch = dispatch
    }

    /// Dispatches `action`, marked as coming from the effect.
    public func callAsFunction(_ action: Action) {
        dispatch(action)
    }
}
