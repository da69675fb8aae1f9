import StoreKitCore

extension RehearsalApp {
    /// The cancellation id of the rehearsal timer: one rehearsal runs at a time.
    private struct TimerID: Hashable, Sendable {}

    /// The rehearsal timer: ticks every second on `clock` while a rehearsal counts in or plays.
    ///
    /// Starting or resuming starts it, cancelling any timer in flight, so a double tap never runs two; pausing,
    /// ending, discarding or popping stops it; and after each tick it reads the current state and stops itself when
    /// the rehearsal has finished or left the stack. The app passes `ContinuousClock()`; scripts and tests pass a
    /// clock they advance themselves.
    public static func timer(clock: any Clock<Duration>) -> Effect<State, Action> {
        Effect("rehearsal timer") { action, context in
            guard case .path(let stackAction) = action else { return }
            switch stackAction {
            case .element(let id, .rehearsal(.startTapped)), .element(let id, .rehearsal(.resumeTapped)):
                await context.cancellable(id: TimerID(), cancelInFlight: true) {
                    while true {
                        try await clock.sleep(for: .seconds(1))
                        context.send(.path(.element(id: id, action: .rehearsal(.timerTick))))
                    }
                }
            case .element(let id, .rehearsal(.timerTick)):
                guard case .rehearsal(let rehearsal)? = context.state.path[id: id], rehearsal.phase != .finished else {
                    context.cancel(id: TimerID())
                    return
                }
            case .element(_, .rehearsal(.pauseTapped)), .element(_, .rehearsal(.endTapped)),
                .element(_, .rehearsal(.discardTapped)), .popFrom:
                context.cancel(id: TimerID())
            default:
                break
            }
        }
    }
}
