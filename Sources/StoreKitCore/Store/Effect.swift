/// Asynchronous work that reacts to actions and may dispatch new ones: a network call, a timer, persistence.
///
/// The store starts every registered effect for every action, after the reducer and the interceptors ran, in a
/// `Task`, with the action and the state after it. Actions an effect sends are dispatched like any other, marked
/// as coming from an effect and naming the action that caused them, so a recording holds them and replay never
/// never runs an effect it is not told to rerun (``EffectReplay``).
///
/// ```swift
/// let postScore = Effect<Scoreboard.State, Scoreboard.Action>.dispatchingOne { action, state in
///     guard case .homeScored = action else { return nil }
///     return .scorePosted(receipt: try? await api.post(state.home, state.away))
/// }
/// ```
/// The full form, ``init(_:handling:)``, gets an ``EffectContext`` instead: the current state at any moment,
/// `send`, and cancellation by id for long-running work such as timers.
public struct Effect<State: Sendable, Action: Sendable>: Sendable {
    /// A name for logs, test failures and the session's effect lines; the names of a store's replayable effects
    /// are unique.
    public let name: String
    /// Whether replay reruns the effect against its recorded inputs (``EffectReplay/rerun``) or never runs it.
    public let replay: EffectReplay
    private let work:
        @Sendable (_ action: Action, _ stateAfterAction: State, _ context: EffectContext<State, Action>) async -> Void

    /// Creates an effect that gets every action, the state right after it, and a way to send actions.
    /// - Parameters:
    ///   - name: A name for logs and test failures.
    ///   - run: The work; it may send any number of actions, at any time before it returns.
    ///   - replay: Whether replay reruns the effect against its recorded inputs; ``EffectReplay/skipped`` by default.
    public init(
        _ name: String = "effect", replay: EffectReplay = .skipped,
        run: @escaping @Sendable (_ action: Action, _ state: State, _ send: Send<Action>) async -> Void
    ) {
        self.name = name
        self.replay = replay
        self.work = { action, stateAfterAction, context in
            await run(action, stateAfterAction, Send { answer in context.send(answer) })
        }
    }

    /// The full form: every action, and a context to read the current state, send, and cancel by id.
    ///
    /// ```swift
    /// Effect<Rehearsal.State, Rehearsal.Action>("timer") { action, context in
    ///     switch action {
    ///     case .startTapped:
    ///         await context.cancellable(id: TimerID(), cancelInFlight: true) {
    ///             while true {
    ///                 try await clock.sleep(for: .seconds(1))
    ///                 context.send(.timerTick)
    ///             }
    ///         }
    ///     case .stopTapped:
    ///         context.cancel(id: TimerID())
    ///     default:
    ///         break
    ///     }
    /// }
    /// ```
    /// - Parameters:
    ///   - name: A name for logs and test failures (`Store.waitForEffects(timeout:)` names effects still running).
    ///   - replay: Whether replay reruns the effect against the inputs it took through `context`
    ///     (``EffectReplay/rerun``) or never runs it (``EffectReplay/skipped``, the default).
    ///   - handling: The work for one action; it may send any number of actions before it returns.
    public init(
        _ name: String = "effect", replay: EffectReplay = .skipped,
        handling: @escaping @Sendable (_ action: Action, _ context: EffectContext<State, Action>) async -> Void
    ) {
        self.name = name
        self.replay = replay
        self.work = { action, _, context in await handling(action, context) }
    }

    /// Runs the effect once for `action` and `state`, sending what it dispatches to `send`; returns when the
    /// effect's work returns. The store calls this; tests can too (StoreKitTesting's `run(with:state:)` does).
    ///
    /// Outside a store, the context's `state` is always `state`, and cancellation ids reach only the work this
    /// one call runs; its UUIDs come from `uuid` and its random numbers from `random`.
    public func perform(
        _ action: Action, state: State, send: Send<Action>, uuid: UUIDGenerator = .random,
        random: RandomGenerator = .system
    ) async {
        let inputs = EffectRun.Inputs.live(
            EffectRun.Live(sinks: [], clock: EffectClock.Base(ContinuousClock()), uuid: uuid, random: random))
        let run = EffectRun(cause: 0, effect: name, isReplayable: false, inputs: inputs)
        let context = EffectContext<State, Action>(
            cause: 0, readState: { _ in (0, state) }, sender: send, cancellations: EffectCancellations(), run: run)
        await work(action, state, context)
    }

    /// Runs the effect once inside a store (or a replay), with the state after `action` and the store's context.
    package func perform(_ action: Action, stateAfterAction: State, context: EffectContext<State, Action>) async {
        await work(action, stateAfterAction, context)
    }

    /// `effects`, each replayable one whose name an earlier replayable one has renamed `name#2`, `name#3` …: the
    /// names a store gives them, by which replay finds a run's effect.
    package static func uniquelyNamed(_ effects: [Effect]) -> [Effect] {
        var named: [Effect] = []
        var taken: Set<String> = []
        for effect in effects {
            guard effect.replay == .rerun else {
                named.append(effect)
                continue
            }
            let name = taken.contains(effect.name) ? (2...).lazy.map { "\(effect.name)#\($0)" }.first { !taken.contains($0) }! : effect.name
            taken.insert(name)
            named.append(name == effect.name ? effect : effect.renamed(name))
        }
        return named
    }

    /// The same effect under another name.
    func renamed(_ newName: String) -> Effect {
        Effect(name: newName, replay: replay, work: work)
    }

    private init(
        name: String, replay: EffectReplay,
        work: @escaping @Sendable (Action, State, EffectContext<State, Action>) async -> Void
    ) {
        self.name = name
        self.replay = replay
        self.work = work
    }

    /// An effect that answers an action with at most one action (`nil` for none).
    public static func dispatchingOne(
        _ name: String = "effect", replay: EffectReplay = .skipped,
        _ body: @escaping @Sendable (_ action: Action, _ state: State) async -> Action?
    ) -> Effect {
        Effect(name, replay: replay) { action, state, send in
            if let answer = await body(action, state) { send(answer) }
        }
    }

    /// An effect that answers an action with any number of actions, dispatched in order.
    public static func dispatchingMultiple(
        _ name: String = "effect", replay: EffectReplay = .skipped,
        _ body: @escaping @Sendable (_ action: Action, _ state: State) async -> [Action]
    ) -> Effect {
        Effect(name, replay: replay) { action, state, send in
            for answer in await body(action, state) { send(answer) }
        }
    }

    /// An effect that never dispatches, such as logging or persistence.
    public static func nonDispatching(
        _ name: String = "effect", replay: EffectReplay = .skipped,
        _ body: @escaping @Sendable (_ action: Action, _ state: State) async -> Void
    ) -> Effect {
        Effect(name, replay: replay) { action, state, _ in await body(action, state) }
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
