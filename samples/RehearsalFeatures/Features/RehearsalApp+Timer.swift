import StoreKitCore

extension RehearsalApp {
    /// The cancellation id of the rehearsal timer: one rehearsal runs at a time.
    private struct TimerID: Hashable, Sendable {}

    /// The rehearsal timer: ticks every second on the store's clock while a rehearsal counts in or plays.
    ///
    /// Starting or resuming starts it, cancelling any timer in flight, so a double tap never runs two; pausing,
    /// ending, discarding or popping stops it; and each second, before it ticks, it reads the current state and stops
    /// itself when the rehearsal has finished or left the stack.
    ///
    /// It sleeps on `context.clock` and reads `context.state`, so it is replayable: a session records each second it
    /// slept and each state it read, and replay reruns the timer on the recorded time. The app's store runs it on
    /// `ContinuousClock()`; scripts and tests give the store a clock they advance themselves (`Store(…, clock:)`).
    public static let timer = Effect<State, Action>("rehearsal timer", replay: .rerun) { action, context in
        guard case .path(let stackAction) = action else { return }
        switch stackAction {
        case .element(let id, .rehearsal(.startTapped)), .element(let id, .rehearsal(.resumeTapped)):
            await context.cancellable(id: TimerID(), cancelInFlight: true) {
                while true {
                    try await context.clock.sleep(for: .seconds(1))
                    guard case .rehearsal(let rehearsal)? = context.state.path[id: id], rehearsal.phase != .finished
                    else { return }
                    context.send(.path(.element(id: id, action: .rehearsal(.timerTick))))
                }
            }
        case .element(_, .rehearsal(.pauseTapped)), .element(_, .rehearsal(.endTapped)),
            .element(_, .rehearsal(.discardTapped)), .popFrom:
            context.cancel(id: TimerID())
        default:
            break
        }
    }
}
