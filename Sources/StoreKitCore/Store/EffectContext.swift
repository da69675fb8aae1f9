/// What an effect gets besides the action: the store's current state, a way to send actions, and cancellation by id.
///
/// A long-running timer that the user starts and stops:
/// ```swift
/// Effect<Timer.State, Timer.Action>("timer") { action, context in
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
/// Cancellation follows dispatch order, whatever order the effects' tasks happen to run in: `cancel(id:)` sent while
/// handling action *n* also stops work under that id that an earlier action's effect has not started yet (it never
/// starts), and leaves alone work that a later action started.
public struct EffectContext<State: Sendable, Action: Sendable>: Sendable {
    /// The sequence number of the action the effect is handling (0 outside a store).
    let cause: Int
    /// Reads the state: the store's current one with its sequence number (`nil`), or in replay the one after the
    /// step given.
    let readState: @Sendable (_ atSequence: Int?) -> (sequence: Int, state: State)
    let sender: Send<Action>
    let cancellations: EffectCancellations
    /// The run this context serves: where its inputs come from and go.
    let run: EffectRun

    /// A context for one run of an effect.
    /// - Parameters:
    ///   - cause: The sequence number of the action the effect handles.
    ///   - readState: Reads the store's current state and its sequence number, or (given a sequence number, in
    ///     replay) the state after that step.
    ///   - sender: Where the actions the effect sends go.
    ///   - cancellations: The store's cancellable work.
    ///   - run: The run: where its inputs come from and go.
    package init(
        cause: Int, readState: @escaping @Sendable (_ atSequence: Int?) -> (sequence: Int, state: State),
        sender: Send<Action>, cancellations: EffectCancellations,
        run: EffectRun
    ) {
        self.cause = cause
        self.readState = readState
        self.sender = sender
        self.cancellations = cancellations
        self.run = run
    }

    /// The store's current state, read at the call (it may have moved on since the action the effect handles).
    ///
    /// In a replayable effect the reading is an input like a call: replay hands back the state after the same step
    /// (counted from the action the effect handles), whenever the rerun reads it.
    public var state: State {
        guard run.isReplayable else { return readState(nil).state }
        switch run.inputs {
        case .live:
            let (sequence, state) = readState(nil)
            _ = run.takeNow(EffectCallEvent.BuiltIn.state.rawValue, input: nil) { max(0, sequence - cause) }
            return state
        case .replayed:
            let offset = run.takeNow(EffectCallEvent.BuiltIn.state.rawValue, input: nil) { 0 }
            return readState(cause + offset).state
        }
    }

    /// Dispatches `action`, marked as coming from an effect and naming the action that caused it.
    public func send(_ action: Action) {
        run.noteSent()
        sender(action)
    }

    /// Runs `work` under `id` until it returns or is cancelled.
    ///
    /// Returns when `work` has ended: it returned, it threw (a `CancellationError` from a sleep is the normal end
    /// of cancelled work, not a failure), or it was never started because it was cancelled first. Work is
    /// cancelled by ``cancel(id:)``, by `Store.cancelEffects(id:)`, by a later `cancellable(id:cancelInFlight: true)`,
    /// or when the effect's own task is cancelled (`Store.cancelEffects()`).
    /// - Parameters:
    ///   - id: The cancellation id; any `Hashable` value (a dedicated empty struct per purpose reads best).
    ///   - cancelInFlight: First cancel the work already running under `id` (started by this or earlier actions),
    ///     so at most one runs: the newest.
    ///   - work: The work. Errors other than cancellation also end it; send an action for those you care about.
    /// > Warning: Cancellation is cooperative: work that never suspends at a cancellable point (a sleep,
    /// > `Task.checkCancellation()`) keeps running, and this method keeps waiting for it.
    public func cancellable<ID: Hashable & Sendable>(
        id: ID, cancelInFlight: Bool = false, _ work: @escaping @Sendable () async throws -> Void
    ) async {
        await cancellations.run(
            AnyHashable(id), startedBy: cause, cancellingInFlight: cancelInFlight, work)
    }

    /// Cancels every work running under `id` in this store that the current or an earlier action started,
    /// including work an earlier action's effect has yet to start.
    public func cancel<ID: Hashable & Sendable>(id: ID) {
        cancellations.cancel(AnyHashable(id), runningThrough: cause, startingThrough: cause - 1)
    }
}
