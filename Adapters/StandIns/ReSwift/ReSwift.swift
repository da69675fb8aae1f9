// A stand-in for ReSwift's store and its middleware hook, written from ReSwift's public documentation (its `Action`
// protocol, `Reducer`, `Middleware` and `Store` declarations), so that `Adapters/ReSwift` compiles and is tested in
// this repository without depending on ReSwift. It keeps what the adapter relies on: middleware wraps dispatch, the
// reducer runs when the last `next` is called, and `getState` reads the state after it.

/// An event of a ReSwift app: any type may be one.
public protocol Action {}

/// The function middleware calls to pass an action on.
public typealias DispatchFunction = (Action) -> Void

/// A reducer: the new state from an action and the current state (`nil` before the first action).
public typealias Reducer<ReducerStateType> = (_ action: Action, _ state: ReducerStateType?) ->
    ReducerStateType

/// Middleware: given the store's dispatch and state, wraps the next dispatch function in the chain.
public typealias Middleware<State> =
    (@escaping DispatchFunction, @escaping () -> State?) -> (@escaping DispatchFunction) ->
    DispatchFunction

/// A store: one state, one reducer, and middleware around its dispatch, applied in the order given.
open class Store<State> {
    /// The current state.
    public private(set) var state: State!
    private let reducer: Reducer<State>
    private var dispatchFunction: DispatchFunction!

    /// Creates a store with `state` (or the state the reducer makes from its first action) and `middleware`.
    public required init(
        reducer: @escaping Reducer<State>, state: State?, middleware: [Middleware<State>] = []
    ) {
        self.reducer = reducer
        self.state = state
        let reduce: DispatchFunction = { [unowned self] action in
            self.state = self.reducer(action, self.state)
        }
        dispatchFunction = middleware.reversed().reduce(reduce) { next, middleware in
            middleware(
                { [unowned self] action in self.dispatch(action) }, { [unowned self] in self.state })(next)
        }
    }

    /// Passes `action` through the middleware to the reducer.
    open func dispatch(_ action: Action) {
        dispatchFunction(action)
    }
}
