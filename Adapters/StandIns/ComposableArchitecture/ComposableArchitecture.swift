// A stand-in for the Composable Architecture's reducer, effect and store, written from TCA's public documentation
// (its `Reducer` protocol, `Reduce`, `Effect` with `none`, `send`, `run`, `merge` and `map`, `Send`, and `Store`'s
// `send`), so that `Adapters/TCA` compiles and is tested in this repository without depending on TCA. It keeps what
// the adapter relies on: the store runs the reducer on the main actor, one action at a time; an effect's actions
// come back to the store through `send`, after `map`'s transform, in the order they are sent.

/// A feature's logic: changes the state for an action and returns the effect to run.
public protocol Reducer<State, Action> {
    /// The feature's state.
    associatedtype State
    /// The feature's actions.
    associatedtype Action
    /// Changes `state` for `action` and returns the work to do next.
    func reduce(into state: inout State, action: Action) -> Effect<Action>
}

/// A reducer made from a closure.
public struct Reduce<State, Action>: Reducer {
    private let body: (inout State, Action) -> Effect<Action>

    /// Creates a reducer that runs `reduce`.
    public init(_ reduce: @escaping (_ state: inout State, _ action: Action) -> Effect<Action>) {
        body = reduce
    }

    /// Runs the closure.
    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        body(&state, action)
    }
}

/// Sends an effect's actions back into the store.
@MainActor public struct Send<Action>: Sendable {
    let send: @MainActor @Sendable (Action) -> Void

    /// Creates one that hands each action to `send`.
    public nonisolated init(send: @escaping @MainActor @Sendable (Action) -> Void) {
        self.send = send
    }

    /// Sends `action` into the store, unless the effect's task is cancelled.
    public func callAsFunction(_ action: Action) {
        guard !Task.isCancelled else { return }
        send(action)
    }
}

/// Work the store runs after a reducer, whose actions come back into the store.
public struct Effect<Action>: Sendable {
    enum Operation: Sendable {
        /// Actions sent at once, right after the reducer.
        case send(@MainActor @Sendable (Send<Action>) -> Void)
        /// An asynchronous operation.
        case run(@Sendable (Send<Action>) async -> Void)
    }

    let operations: [Operation]

    /// No work.
    public static var none: Self { Self(operations: []) }

    /// Sends `action` at once.
    public static func send(_ action: Action) -> Self where Action: Sendable {
        Self(operations: [.send { send in send(action) }])
    }

    /// Runs `operation`, which sends actions through the `Send` it is given.
    public static func run(operation: @escaping @Sendable (_ send: Send<Action>) async -> Void)
        -> Self
    {
        Self(operations: [.run(operation)])
    }

    /// Runs every effect.
    public static func merge(_ effects: Self...) -> Self {
        Self(operations: effects.flatMap(\.operations))
    }

    /// The same work, its actions transformed by `transform` as they are sent.
    public func map<T>(_ transform: @escaping @Sendable (Action) -> T) -> Effect<T> {
        Effect<T>(
            operations: operations.map { operation in
                switch operation {
                case .send(let body):
                    .send { send in body(Send { action in send(transform(action)) }) }
                case .run(let body):
                    .run { send in await body(Send { action in send(transform(action)) }) }
                }
            })
    }
}

/// A feature's runtime: holds the state, runs the reducer for each action sent, then its effects.
@MainActor public final class Store<State, Action> {
    /// The current state.
    public private(set) var state: State
    private let reducer: any Reducer<State, Action>
    private var buffered: [Action] = []
    private var isSending = false
    private var running: [Task<Void, Never>] = []

    /// Creates a store with `initialState` and the reducer `reducer` builds.
    public init<R: Reducer>(initialState: State, reducer: () -> R)
    where R.State == State, R.Action == Action {
        self.state = initialState
        self.reducer = reducer()
    }

    /// Sends `action`: reduces it and every action its effects send at once, in order, then starts its effects'
    /// asynchronous work.
    @discardableResult
    public func send(_ action: Action) -> StoreTask {
        buffered.append(action)
        guard !isSending else { return StoreTask(store: self) }
        isSending = true
        while !buffered.isEmpty {
            let next = buffered.removeFirst()
            let effect = reducer.reduce(into: &state, action: next)
            let send = Send<Action> { [weak self] action in self?.send(action) }
            for operation in effect.operations {
                switch operation {
                case .send(let body): body(send)
                case .run(let body): running.append(Task { await body(send) })
                }
            }
        }
        isSending = false
        return StoreTask(store: self)
    }

    /// Waits until no effect of the store is running.
    func finishEffects() async {
        while let task = running.first {
            await task.value
            running.removeFirst()
        }
    }
}

/// The work a `send` started.
@MainActor public struct StoreTask {
    private let waitForEffects: @MainActor () async -> Void

    init<State, Action>(store: Store<State, Action>) {
        waitForEffects = { [weak store] in await store?.finishEffects() }
    }

    /// Waits until the store's effects have finished.
    public func finish() async {
        await waitForEffects()
    }
}
