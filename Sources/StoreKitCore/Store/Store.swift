import Foundation
import StoreKitSystem

/// Holds an app's state and applies actions to it, one at a time, in a single total order.
///
/// Dispatch order for each action:
/// 1. the **reducer** computes the new state from the old one and the action;
/// 2. the new state is **published**: `state` returns it and observers are told, in the order they subscribed;
/// 3. every **interceptor** gets `(action, oldState, newState, context)`, in registration order;
/// 4. every **effect** is started in a `Task` with the action and the new state.
///
/// `dispatch` is safe from any thread and synchronous: when it returns, the state reflects the action. Actions
/// from several threads are applied one after another, and interceptors see them in that same order.
/// An interceptor or observer may dispatch; that action is applied right after the current one, before the outer
/// `dispatch` returns.
///
/// ```swift
/// let store = Store(initialState: Todos.State(), reducer: Todos.reducer, effects: [saveEffect])
/// store.dispatch(.addTodo(id: UUID(), title: "Milk", createdAt: Date()))
/// let open = store.select(Todos.activeCount)
/// ```
///
/// > Warning: A reducer must be pure: dispatching from inside a reducer is a programmer error and stops the
/// > program with a message naming the action being reduced (as ReSwift and Fluxor do).
public final class Store<State: Codable & Equatable & Sendable, Action: Codable & Sendable>: @unchecked Sendable {
    private let lock = NSRecursiveLock()
    private let reducer: Reducer<State, Action>
    /// The monotonic time, in nanoseconds, from which dispatch contexts count their `uptimeNanoseconds`.
    let createdAt = MonotonicClock.nanoseconds()
    private let effectTasks = EffectTasks()
    private let cancellations = EffectCancellations()

    // Guarded by `lock`. The state and the sequence number, which every dispatch reads and writes, are not checked
    // for exclusivity at run time (docs/performance.md): each access is a plain read or write under the lock, with
    // no call inside it, so none can overlap another even when a dispatch reaches the store again.
    @exclusivity(unchecked) private var current: State
    /// The interceptors in registration order, as a chain (see ``Chain``); they are never removed.
    private var interceptors: Chain<any Interceptor<State, Action>>?
    private var effects: [Effect<State, Action>]
    /// The observers in the order they subscribed, as a chain (see ``Chain``), each numbered by its subscription.
    private var observers: Chain<@Sendable (State) -> Void>?
    private var nextObserverID: UInt64 = 0
    @exclusivity(unchecked) private var sequence = 0
    private var isDispatching = false
    /// The action the reducer is reducing, while it is: a slot, which dispatch fills and empties without asking the
    /// runtime for the metadata of an optional action (see ``ValueSlot``).
    private let actionBeingReduced = ValueSlot<Action>()
    /// The actions dispatched while another is applied, in order; dispatch reads the array only when it holds some.
    private var pending: [(Action, DispatchContext.Origin, effect: String?)] = []
    private var hasPending = false
    /// Whether ``effects`` holds any: a dispatch of a store without effects skips them without touching the array.
    private var hasEffects = false
    /// What effect runs take from the outside world through their context: the clock, UUIDs and random numbers,
    /// and the interceptors that record what they take and how they end.
    private var effectInputs: EffectRun.Live

    /// Creates a store.
    /// - Parameters:
    ///   - initialState: The state before any action.
    ///   - reducer: How actions change the state.
    ///   - effects: Asynchronous reactions to actions.
    ///   - interceptors: Watchers of every applied action, such as a ``SessionRecorder``.
    ///   - clock: The clock effects read and sleep on through ``EffectContext/clock``; a test passes a clock it
    ///     advances itself.
    ///   - uuid: Where effects take new UUIDs from through ``EffectContext/uuid()``; a test passes
    ///     ``UUIDGenerator/incrementing`` to know them.
    ///   - random: Where effects take random numbers from through `EffectContext.random(in:)`; a test passes
    ///     ``RandomGenerator/seeded(_:)`` to draw the same ones in every run.
    public init(
        initialState: State, reducer: Reducer<State, Action>, effects: [Effect<State, Action>] = [],
        interceptors: [any Interceptor<State, Action>] = [], clock: any Clock<Duration> = ContinuousClock(),
        uuid: UUIDGenerator = .random, random: RandomGenerator = .system
    ) {
        self.current = initialState
        self.reducer = reducer
        self.effectInputs = EffectRun.Live(
            sinks: [], clock: EffectClock.Base(clock, storeCreatedAt: createdAt), uuid: uuid, random: random)
        self.effects = Effect.uniquelyNamed(effects)
        self.hasEffects = !effects.isEmpty
        for interceptor in interceptors { add(interceptor) }
    }

    /// The names of the replayable effects (``EffectReplay/rerun``), in registration order.
    package var replayableEffectNames: [String] {
        lock.withLock { effects.filter { $0.replay == .rerun }.map(\.name) }
    }


    /// Adds an interceptor (and, when it records effect inputs, a sink for them); call with the lock held.
    private func add(_ interceptor: any Interceptor<State, Action>) {
        interceptors = Chain.appending(interceptor, id: 0, to: interceptors)
        if let sink = interceptor as? any EffectInputSink { effectInputs.sinks.append(sink) }
    }

    /// The current state.
    public var state: State {
        lock.withLock { current }
    }

    /// The current state and the sequence number of the action that made it, read together.
    private var stateAndSequence: (sequence: Int, state: State) {
        lock.withLock { (sequence, current) }
    }

    /// The value `selector` selects from the current state.
    public func select<Value>(_ selector: Selector<State, Value>) -> Value {
        selector(state)
    }

    /// Applies `action` and returns its sequence number in the store (1, 2, 3 ...).
    @discardableResult
    public func dispatch(_ action: Action) -> Int {
        dispatch(action, origin: .app, effect: nil)
    }

    private func dispatch(_ action: Action, origin: DispatchContext.Origin, effect: String?) -> Int {
        lock.lock()
        defer { lock.unlock() }
        if actionBeingReduced.isFilled {
            preconditionFailure(
                "Store.dispatch(_:) was called from inside a reducer while reducing \(actionBeingReduced.filled.pointee); "
                    + "reducers must be pure: dispatch \(action) from an effect or from app code instead")
        }
        if isDispatching { return queue(action, origin: origin, effect: effect) }
        isDispatching = true
        defer { isDispatching = false }
        let assigned = apply(action, origin: origin, effect: effect)
        if hasPending { applyPending() }
        return assigned
    }

    /// Queues an action dispatched while another is applied, to be applied after it.
    /// - Returns: Its sequence number to be.
    // Apart from `dispatch`, so that a dispatch that queues nothing asks the runtime for no metadata of the queue.
    @inline(never)
    private func queue(_ action: Action, origin: DispatchContext.Origin, effect: String?) -> Int {
        pending.append((action, origin, effect))
        hasPending = true
        return sequence + pending.count
    }

    /// Applies the queued actions, in order, including those they queue.
    @inline(never)
    private func applyPending() {
        while hasPending {
            let (next, nextOrigin, nextEffect) = pending.removeFirst()
            hasPending = !pending.isEmpty
            apply(next, origin: nextOrigin, effect: nextEffect)
        }
    }

    /// Runs one action through the whole dispatch order; call with the lock held.
    @discardableResult
    private func apply(_ action: Action, origin: DispatchContext.Origin, effect sender: String?) -> Int {
        sequence += 1
        let context = DispatchContext(
            sequence: sequence, origin: origin, uptimeNanoseconds: MonotonicClock.nanoseconds() &- createdAt,
            effect: sender)
        let oldState = current
        var newState = oldState
        actionBeingReduced.fill(action)
        reducer.reduce(&newState, action)
        actionBeingReduced.empty()
        current = newState
        if observers != nil, newState != oldState {
            var observer = observers
            while let link = observer {
                link.element(newState)
                observer = link.next
            }
        }
        var interceptor = interceptors
        while let link = interceptor {
            link.element.actionDispatched(action, oldState: oldState, newState: newState, context: context)
            interceptor = link.next
        }
        if hasEffects { startEffects(for: action, cause: context.sequence, stateAfterAction: newState) }
        return context.sequence
    }

    /// Starts every effect for `action`, the action numbered `cause`, with the state it made.
    // Apart from `apply`, so that a dispatch to a store without effects asks the runtime for no metadata of them.
    @inline(never)
    private func startEffects(for action: Action, cause: Int, stateAfterAction published: State) {
        let inputs = EffectRun.Inputs.live(effectInputs)
        for effect in effects {
            let name = effect.name
            let send = Send<Action> { [weak self] answer in
                _ = self?.dispatch(answer, origin: .effect(cause: cause), effect: name)
            }
            let run = EffectRun(cause: cause, effect: name, isReplayable: effect.replay == .rerun, inputs: inputs)
            let effectContext = EffectContext<State, Action>(
                cause: cause, readState: { [weak self] _ in self?.stateAndSequence ?? (cause, published) }, sender: send,
                cancellations: cancellations, run: run)
            effectTasks.start(effectName: name, sequence: cause, action: action) {
                await effect.perform(action, stateAfterAction: published, context: effectContext)
                run.finish(cancelled: Task.isCancelled)
            }
        }
    }

    /// Adds an interceptor; it sees every action applied from now on.
    public func register(interceptor: some Interceptor<State, Action>) {
        lock.withLock { add(interceptor) }
    }

    /// Reads the current state and registers the interceptor made from it in one step, so no action is applied
    /// in between. `startRecording(_:to:)` uses this to capture the initial state of a session.
    /// - Returns: The registered interceptor.
    @discardableResult
    public func register<I: Interceptor<State, Action>>(_ make: (_ currentState: State) throws -> I) rethrows -> I {
        try lock.withLock {
            let interceptor = try make(current)
            add(interceptor)
            return interceptor
        }
    }

    /// Adds an effect; it is started for every action applied from now on.
    ///
    /// A replayable effect whose name a replayable effect of the store has already is renamed `name#2` (then `#3`
    /// …), in registration order, since replay finds a run's effect by its name.
    public func register(effect: Effect<State, Action>) {
        lock.withLock {
            effects = Effect.uniquelyNamed(effects + [effect])
            hasEffects = true
        }
    }

    /// Waits until every effect task has finished, including tasks started by actions that effects dispatched.
    ///
    /// > Warning: This waits as long as an effect runs, forever for a timer nobody stops; tests should use
    /// > ``waitForEffects(timeout:)``, which names the effects that did not end.
    public func waitForEffects() async {
        await effectTasks.waitUntilIdle()
    }

    /// Waits until every effect task has finished (including tasks started by actions that effects dispatched), at
    /// most `timeout`.
    /// - Throws: ``EffectsStillRunning`` naming each effect still running and the action that started it; the
    ///   effects keep running (``cancelEffects()`` stops them).
    public func waitForEffects(timeout: Duration) async throws(EffectsStillRunning) {
        if await effectTasks.waitUntilIdle(timeout: timeout) { return }
        let running = effectTasks.runningEffects
        // The last effect may have ended between the timeout and this look.
        if !running.isEmpty { throw EffectsStillRunning(timeout: timeout, running: running) }
    }

    /// Cancels every running effect task.
    public func cancelEffects() {
        effectTasks.cancelAll()
    }

    /// Cancels the work effects run under `id` (``EffectContext/cancellable(id:cancelInFlight:_:)``), including
    /// work that an action already applied has yet to start.
    public func cancelEffects<ID: Hashable & Sendable>(id: ID) {
        let applied = lock.withLock { sequence }
        cancellations.cancel(AnyHashable(id), runningThrough: applied, startingThrough: applied)
    }

    /// Calls `onChange` with every new state that differs from the previous one, until the subscription is
    /// cancelled or released. Called on the dispatching thread, inside the dispatch: return quickly.
    public func observe(_ onChange: @escaping @Sendable (State) -> Void) -> StoreSubscription {
        let id = lock.withLock {
            nextObserverID += 1
            observers = Chain.appending(onChange, id: nextObserverID, to: observers)
            return nextObserverID
        }
        return StoreSubscription { [weak self] in
            guard let self else { return }
            lock.withLock { observers = Chain.removing(id: id, from: observers) }
        }
    }

    /// The values `selector` selects: the current one first, then each one that differs from the last.
    public func values<Value: Equatable & Sendable>(of selector: Selector<State, Value>) -> AsyncStream<Value> {
        DistinctValues.stream(of: { selector($0) }) { yieldIfNew in
            lock.withLock {
                yieldIfNew(current)
                return observe(yieldIfNew)
            }
        }
    }
}

/// A running observation of a store; it ends on ``cancel()`` or when released.
public final class StoreSubscription: Sendable {
    private let cancellation: Locked<(@Sendable () -> Void)?>

    /// Creates a subscription that runs `cancel` once, when cancelled or released (for store doubles such as
    /// StoreKitTesting's `MockStore`).
    public init(_ cancel: @escaping @Sendable () -> Void) {
        self.cancellation = Locked(cancel)
    }

    deinit {
        cancel()
    }

    /// Stops the observation; later calls do nothing.
    public func cancel() {
        let cancel = cancellation.withLock { stored -> (@Sendable () -> Void)? in
            defer { stored = nil }
            return stored
        }
        cancel?()
    }
}
