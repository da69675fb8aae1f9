/// A pure function that applies an action to a state: the only place state changes.
///
/// A reducer is `(inout State, Action) -> Void`. A `(State, Action) -> State` form is offered by
/// ``init(pure:)`` for code written in that style; both behave the same.
///
/// Replay depends on reducers being deterministic: a session is replayed as
/// `state_i = reduce(state_{i-1}, action_i)`, so everything a reducer needs (time, UUIDs, random numbers) must
/// arrive inside the action.
///
/// ```swift
/// let counter = Reducer<Int, CounterAction> { count, action in
///     switch action {
///     case .increment: count += 1
///     case .decrement: count -= 1
///     }
/// }
/// let app = Reducer<AppState, AppAction>.combine(
///     .scope(\.counter, counter),
///     .scope(state: \.todos, action: { $0.todoAction }, child: todosReducer)
/// )
/// ```
///
/// > Warning: A reducer must be pure and fast. It runs while the store holds its dispatch lock: calling
/// > ``Store/dispatch(_:)`` from inside a reducer stops the program with a precondition failure, and reading the
/// > clock, a random generator or anything outside `state` and `action` breaks replay.
public struct Reducer<State, Action>: Sendable {
    private let body: @Sendable (inout State, Action) -> Void

    /// Creates a reducer that mutates the state in place.
    /// - Parameter reduce: Applies `action` to `state`. Must be pure: the same state and action always give the
    ///   same result.
    public init(_ reduce: @escaping @Sendable (inout State, Action) -> Void) {
        self.body = reduce
    }

    /// Creates a reducer from a function that returns the next state.
    /// - Parameter pure: Returns the state after `action` is applied to the given state. Must be pure.
    public init(pure: @escaping @Sendable (State, Action) -> State) {
        self.body = { state, action in state = pure(state, action) }
    }

    /// Applies an action to a state.
    /// - Parameters:
    ///   - state: The state to update in place.
    ///   - action: The action to apply.
    public func reduce(_ state: inout State, _ action: Action) {
        body(&state, action)
    }

    /// Combines reducers into one that applies each of them, in the given order, to the same state.
    ///
    /// Each reducer sees the state as left by the ones before it.
    /// - Parameter reducers: The reducers to apply, first to last.
    /// - Returns: A reducer running all of them; with no reducers, one that changes nothing.
    public static func combine(_ reducers: Reducer...) -> Reducer {
        combine(reducers)
    }

    /// Combines an array of reducers into one that applies each of them, in array order, to the same state.
    /// - Parameter reducers: The reducers to apply, first to last.
    /// - Returns: A reducer running all of them; with an empty array, one that changes nothing.
    public static func combine(_ reducers: [Reducer]) -> Reducer {
        Reducer { state, action in
            for reducer in reducers {
                reducer.reduce(&state, action)
            }
        }
    }

    /// Lifts a reducer of a part of the state into a reducer of the whole state.
    ///
    /// The child reducer receives every action and mutates the substate at `keyPath` in place.
    /// - Parameters:
    ///   - keyPath: Where the child state lives inside `State`. A key path literal such as `\.counter` is
    ///     `Sendable` automatically.
    ///   - child: The reducer of the child state.
    /// - Returns: A reducer of the whole state.
    public static func scope<Child>(
        _ keyPath: WritableKeyPath<State, Child> & Sendable,
        _ child: Reducer<Child, Action>
    ) -> Reducer {
        Reducer { state, action in
            child.reduce(&state[keyPath: keyPath], action)
        }
    }

    /// Lifts a reducer of a part of the state and a subset of the actions into a reducer of the whole.
    ///
    /// For each action, `toChildAction` picks out the child's action; actions for which it returns `nil` leave
    /// the state untouched.
    /// - Parameters:
    ///   - keyPath: Where the child state lives inside `State`. A key path literal such as `\.todos` is `Sendable`
    ///     automatically.
    ///   - toChildAction: Returns the child action carried by an action, or `nil` when the action is not for
    ///     the child (for example an enum case's associated value).
    ///   - child: The reducer of the child state and actions.
    /// - Returns: A reducer of the whole state and actions.
    public static func scope<Child, ChildAction>(
        state keyPath: WritableKeyPath<State, Child> & Sendable,
        action toChildAction: @escaping @Sendable (Action) -> ChildAction?,
        child: Reducer<Child, ChildAction>
    ) -> Reducer {
        Reducer { state, action in
            guard let childAction = toChildAction(action) else { return }
            child.reduce(&state[keyPath: keyPath], childAction)
        }
    }
}
