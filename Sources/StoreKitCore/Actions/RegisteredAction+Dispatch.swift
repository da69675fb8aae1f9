// Dispatching a registered action type's value where a store of ``RegisteredAction`` takes an action, without
// wrapping it by hand: `store.dispatch(AddTodo(title: "Milk"))`, `send(DidFetchTodos(todos: todos))`.

extension StoreProtocol {
    /// Wraps `action` in the store's ``RegisteredAction`` and dispatches it.
    /// - Returns: Its sequence number.
    @discardableResult
    public func dispatch<Registry, Wrapped: Codable & Sendable>(_ action: Wrapped) -> Int
    where Action == RegisteredAction<Registry> {
        dispatch(RegisteredAction(action))
    }
}

extension Send {
    /// Wraps `action` in the store's ``RegisteredAction`` and dispatches it, marked as coming from the effect.
    public func callAsFunction<Registry, Wrapped: Codable & Sendable>(_ action: Wrapped)
    where Action == RegisteredAction<Registry> {
        dispatch(RegisteredAction(action))
    }
}

extension EffectContext {
    /// Wraps `action` in the store's ``RegisteredAction`` and dispatches it, marked as coming from this effect.
    public func send<Registry, Wrapped: Codable & Sendable>(_ action: Wrapped)
    where Action == RegisteredAction<Registry> {
        send(RegisteredAction(action))
    }
}

extension Reducer {
    /// A reducer for one registered action type, in the style of Fluxor's `ReduceOn`; other actions leave the state
    /// as it is. Combine one per type with ``combine(_:)``:
    /// ```swift
    /// let reducer = Reducer<AppState, AppAction>.combine(
    ///     .on(AddTodo.self) { state, add in state.todos.append(add.title) },
    ///     .on(DidFetchTodos.self) { state, fetched in state.todos = fetched.todos }
    /// )
    /// ```
    /// - Parameters:
    ///   - type: The action type.
    ///   - reduce: Applies an action of that type to the state. Must be pure.
    public static func on<Registry, Wrapped>(
        _ type: Wrapped.Type, _ reduce: @escaping @Sendable (inout State, Wrapped) -> Void
    ) -> Reducer where Action == RegisteredAction<Registry> {
        Reducer { state, action in
            if let wrapped = action.as(Wrapped.self) { reduce(&state, wrapped) }
        }
    }
}
