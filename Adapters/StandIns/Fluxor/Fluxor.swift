// A stand-in for Fluxor's store and its interceptor hook, written from Fluxor's public documentation (its `Action`
// protocol, `Reducer`, `Interceptor` and `Store` declarations), so that `Adapters/Fluxor` compiles and is tested in
// this repository without depending on Fluxor. It keeps what the adapter relies on: the store runs its reducers,
// then calls each interceptor with the action, the old state and the new state.

import Foundation

/// An event of a Fluxor app, dispatched on a ``Store``.
public protocol Action: Encodable {
    /// The action encoded with `encoder`.
    func encode(with encoder: JSONEncoder) -> Data?
}

extension Action {
    /// The action encoded with `encoder`, `nil` when it does not encode.
    public func encode(with encoder: JSONEncoder) -> Data? {
        try? encoder.encode(self)
    }
}

/// Changes the state for the actions it handles.
public struct Reducer<State> {
    /// The reducer's id.
    public let id: String
    /// Changes the state for an action.
    public let reduce: (inout State, Action) -> Void

    /// Creates a reducer.
    public init(id: String = UUID().uuidString, reduce: @escaping (inout State, Action) -> Void) {
        self.id = id
        self.reduce = reduce
    }
}

/// Sees every action a ``Store`` dispatches, with the state before and after it.
public protocol Interceptor {
    /// The store's state type.
    associatedtype State
    /// The interceptor's id.
    static var id: String { get }
    /// Called after the reducers ran `action`.
    func actionDispatched(action: Action, oldState: State, newState: State)
}

extension Interceptor {
    /// The type's name.
    public static var id: String { String(describing: Self.self) }
}

/// A store: a state, reducers, interceptors, and an environment its effects use.
open class Store<State, Environment> {
    /// The current state.
    public private(set) var state: State
    /// What the app's effects use.
    public let environment: Environment
    private var reducers: [Reducer<State>]
    private var interceptors: [(Action, State, State) -> Void] = []

    /// Creates a store.
    public init(initialState: State, environment: Environment, reducers: [Reducer<State>] = []) {
        self.state = initialState
        self.environment = environment
        self.reducers = reducers
    }

    /// Adds a reducer.
    public func register(reducer: Reducer<State>) {
        reducers.append(reducer)
    }

    /// Adds an interceptor, called for every action from now on.
    public func register<I: Interceptor>(interceptor: I) where I.State == State {
        interceptors.append(interceptor.actionDispatched)
    }

    /// Runs the reducers, then the interceptors.
    public func dispatch(action: Action) {
        let oldState = state
        for reducer in reducers { reducer.reduce(&state, action) }
        for interceptor in interceptors { interceptor(action, oldState, state) }
    }
}
