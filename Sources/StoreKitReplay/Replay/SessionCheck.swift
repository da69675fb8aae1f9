import StoreKitCore

/// What one reading of a session found (``ReplayEngine/check(reader:contextActions:)``): its schema drift and its
/// replay report.
public struct SessionCheck: Sendable {
    /// Every recorded value that no longer decodes; `nil` when no store of the engine replays the session (the
    /// report's verdict is ``ReplayVerdict/unknownStore(storeID:knownStores:)``).
    public var drift: SchemaDrift?
    /// The replay, with the actions before each divergence.
    public var report: ReplayReport

    /// Creates one.
    public init(drift: SchemaDrift?, report: ReplayReport) {
        self.drift = drift
        self.report = report
    }
}

/// What a replay gathers beside its report while it reads the session: the drift of every recorded value, and the
/// actions a divergence shows as its context.
struct ReplayExtras {
    /// The actions before the one being replayed.
    var precedingActions: PrecedingActionWindow
    /// Whether the replay checks the drift.
    let checksDrift: Bool
    /// The drift found so far, with the replay's own replayer (which decodes each action once for both); `nil`
    /// when the replay does not check it, or no store replays the session.
    var drift: DriftCheck?

    init(contextActions: Int, checksDrift: Bool) {
        self.precedingActions = PrecedingActionWindow(capacity: contextActions)
        self.checksDrift = checksDrift
    }
}

/// The last few actions read, oldest first, for the context of a divergence.
struct PrecedingActionWindow {
    /// How many actions it keeps.
    let capacity: Int
    private var kept: [PrecedingAction] = []
    /// Where the kept actions start in `kept`; the ones before it have left the window.
    private var start = 0

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// The actions in the window, oldest first.
    var actions: [PrecedingAction] { Array(kept[start...]) }

    /// Takes in `action`, letting the oldest go when the window is full.
    mutating func append(_ action: ActionEvent) {
        guard capacity > 0 else { return }
        kept.append(PrecedingAction(step: action.sequence, name: action.name, action: action.action))
        if kept.count - start > capacity { start += 1 }
        if start >= capacity {
            kept.removeFirst(start)
            start = 0
        }
    }
}
