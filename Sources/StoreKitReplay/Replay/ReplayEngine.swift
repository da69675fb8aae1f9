import StoreKitCore
import StoreKitJSON

/// Reruns recorded sessions through the current reducers and compares every state with the recorded one.
///
/// Replay is `state_i = reduce(state_{i-1}, action_i)`, starting from the header's initial state; effects never
/// run, because the actions they dispatched are in the session like any other. Each replayed state is compared
/// with the recorded one: equal canonical JSON is the fast path; otherwise the recorded state is decoded and
/// compared with the state type's own `==` (a `Set` encodes in a per-process order), and only a real inequality
/// becomes a ``Divergence`` with a structural diff.
///
/// Values that differ from run to run (random ids, dates) can be ignored by path (``Options/ignoring``): the
/// replayed state takes the recorded values there before the comparison, so the verdict stays the state type's own.
/// Sessions recorded under an older schema version go through the store's migration before decoding (see
/// ``ReplayableStore``).
///
/// After a gap the engine cannot know the state before the next action, so it takes that action's recorded state
/// as the new starting point and checks the rest; the verdict says the session is ``ReplayVerdict/incomplete(gaps:)``.
public struct ReplayEngine: Sendable {
    /// How far the engine goes.
    public struct Options: Sendable {
        /// Keep replaying after a divergence (from the recorded state) to list every diverging step.
        public var findAllDivergences: Bool
        /// Stop after this step (inclusive); `nil` replays everything.
        public var lastStep: Int?
        /// Called before each action is replayed, and for each action read on after replay stopped (to describe
        /// the whole session, and to check every recorded state for drift): a replay host reports progress with
        /// it, so a long read after an early divergence is not taken for a hang.
        public var willReplay: (@Sendable (ActionEvent) -> Void)?
        /// Places whose values do not count: before each comparison the replayed state takes the recorded values
        /// there (see ``JSONPathPattern/overlay(from:onto:)``), and the state type's `==` judges the rest.
        public var ignoring: [JSONPathPattern]
        /// Which member identifies the elements of which arrays, where it is not `id`: a divergence's diff matches
        /// their elements by it (see ``IdentityKey``).
        public var identity: [IdentityKey]
        /// Called now and then after the last step while the effect runs still in flight are ended and judged (a
        /// replay host shows it on its board, so that a long ending is not taken for a hang).
        public var endingEffectRuns: (@Sendable (EffectRunsEnding) -> Void)?

        /// Creates options; by default the engine stops at the first divergence, replays every step, ignores
        /// nothing and identifies elements by `id`.
        public init(
            findAllDivergences: Bool = false, lastStep: Int? = nil,
            willReplay: (@Sendable (ActionEvent) -> Void)? = nil, ignoring: [JSONPathPattern] = [],
            identity: [IdentityKey] = [], endingEffectRuns: (@Sendable (EffectRunsEnding) -> Void)? = nil
        ) {
            self.findAllDivergences = findAllDivergences
            self.lastStep = lastStep
            self.willReplay = willReplay
            self.ignoring = ignoring
            self.identity = identity
            self.endingEffectRuns = endingEffectRuns
        }
    }

    /// The stores the engine can replay, by id.
    public let stores: [String: ReplayableStore]
    /// How far the engine goes.
    public var options: Options

    /// Creates an engine for `stores`.
    public init(stores: [ReplayableStore], options: Options = Options()) {
        self.stores = Dictionary(stores.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.options = options
    }

    /// Replays the session file at `path` (`-` for standard input), streaming it line by line.
    /// - Throws: ``SessionReadError`` when the file is not a valid session; replay findings are in the report.
    public func replay(path: String) throws(SessionReadError) -> ReplayReport {
        try replay(reader: try SessionReader(path: path))
    }

    /// Replays a session held in memory.
    ///
    /// The events go through the same rules as a file's lines (``SessionLineDecoder``): sequence numbers that
    /// increase by one, with gaps only where a ``GapEvent`` names them. An action's ``ActionEvent/state`` is taken as
    /// it is: in memory it is the truth, patch or not.
    ///
    /// > Warning: A session read from a file always keeps the rules; one built or edited in code must keep them too.
    /// > An event that breaks them (a sequence number that repeats, goes backwards or skips with no gap event) is a
    /// > programming error and stops the process with the reader's message, never a replayed guess.
    public func replay(_ session: Session) -> ReplayReport {
        var events = session.events.makeIterator()
        var rules = SessionLineDecoder(source: "<memory>")
        var extras = ReplayExtras(contextActions: 0, checksDrift: false)
        return replay(
            header: session.header, extras: &extras,
            next: { () throws(Never) in
                guard let event = events.next() else { return nil }
                do {
                    if rules.lineNumber == 0 { try rules.admit(.header(session.header)) }
                    try rules.admit(event)
                    return event
                } catch {
                    preconditionFailure("the session breaks the format's rules: \(error)")
                }
            }, recordedStateBytes: { nil }, buildState: { (_: inout ActionEvent) throws(Never) in })
    }

    /// Replays what `reader` has left; the first event must be the header.
    /// - Throws: ``SessionReadError`` when the input is not a valid session.
    public func replay(reader: SessionReader) throws(SessionReadError) -> ReplayReport {
        guard case .header(let header) = try reader.next() else {
            throw SessionReadError(source: reader.source, line: reader.lineNumber, problem: .empty)
        }
        var extras = ReplayExtras(contextActions: 0, checksDrift: false)
        return try replay(header: header, extras: &extras, reader: reader)
    }

    /// Checks what `reader` has left (the first event must be the header) in one reading: every recorded value's
    /// schema drift (as ``checkDrift(reader:)`` finds it), the replay (as ``replay(reader:)`` reports it), and the
    /// `contextActions` actions before each divergence (as ``ReplayReport/attachPrecedingActions(_:from:)`` gives
    /// them). A recorded state whose bytes are the canonical encoding of the replayed state is not decoded again
    /// for the drift check: the state type reads back what it writes; nor is one replay has just read to start over
    /// from (after a gap).
    /// - Throws: ``SessionReadError`` when the input is not a valid session.
    public func check(reader: SessionReader, contextActions: Int) throws(SessionReadError) -> SessionCheck {
        guard case .header(let header) = try reader.next() else {
            throw SessionReadError(source: reader.source, line: reader.lineNumber, problem: .empty)
        }
        var extras = ReplayExtras(contextActions: contextActions, checksDrift: true)
        let report = try replay(header: header, extras: &extras, reader: reader)
        return SessionCheck(drift: extras.drift?.result, report: report)
    }

    /// Replays what `reader` has left after `header`, each recorded state left unbuilt until a step needs more than
    /// its bytes (``SessionReader/defersRecordedStates``).
    private func replay(
        header: SessionHeader, extras: inout ReplayExtras, reader: SessionReader
    ) throws(SessionReadError) -> ReplayReport {
        let defers = reader.defersRecordedStates
        reader.defersRecordedStates = true
        defer { reader.defersRecordedStates = defers }
        return try replay(
            header: header, extras: &extras, next: { () throws(SessionReadError) in try reader.next() },
            recordedStateBytes: { reader.recordedStateBytes },
            buildState: { (action: inout ActionEvent) throws(SessionReadError) in
                if let state = try reader.takeUnbuiltState() { action.state = state }
            })
    }

    /// Replays the events `next` reads after `header`; `recordedStateBytes` gives the bytes of the last event's
    /// recorded state as its line holds them, when it can, and `buildState` puts in an action the recorded state
    /// `next` left unbuilt, if it did.
    private func replay<Failure: Error>(
        header: SessionHeader, extras: inout ReplayExtras, next: () throws(Failure) -> SessionEvent?,
        recordedStateBytes: () -> ArraySlice<UInt8>?, buildState: (inout ActionEvent) throws(Failure) -> Void
    ) throws(Failure) -> ReplayReport {
        var run = ReplayRun(header: header, ignoring: options.ignoring.map(\.text))
        guard let store = stores[header.storeID] else {
            run.verdictOverride = .unknownStore(storeID: header.storeID, knownStores: stores.keys.sorted())
            while let event = try next() { run.count(event) }
            return run.report
        }
        let replayer = store.replayer(for: header)
        var effects = SessionEffectCheck(header: header, hostEffects: store.replayableEffects, replaying: replayer.effects)
        if extras.checksDrift { extras.drift = DriftCheck(header: header, store: store, replayer: replayer) }
        var loaded = true
        do {
            try replayer.load(header.initialState, as: .initialState)
        } catch {
            run.fail(error, step: 0, actionName: nil)
            // A drift check reads on to the end; the report stays that of a replay that could not start.
            guard extras.drift != nil else { return run.report }
            loaded = false
        }
        // The reader (or, for an in-memory session, the same rules) has checked the sequence: each action follows
        // the one before it or the gap before it, so only a gap makes the engine start over from a recorded state.
        var needsResync = false
        var stopped = !loaded
        while let event = try next() {
            if case .action(let action) = event { extras.drift?.checkAction(action) }
            if stopped {
                if case .action(let action) = event { options.willReplay?(action) }
                if case .action(var action) = event, extras.drift != nil {
                    try buildState(&action)
                    extras.drift?.checkRecordedState(of: action)
                }
                if loaded { run.count(event) }
                if case .action(let action) = event, case .effect = action.origin { run.effectActionsAfterStop += 1 }
                if case .action(let action) = event { extras.precedingActions.append(action) }
                continue
            }
            // Consumed, so that an action is moved out of its event rather than copied.
            switch consume event {
            case .header:
                break  // The reader rejects a second header.
            case .gap(var gap):
                effects.gap(gap)
                let kept = gap.actions
                gap.actions = []
                run.gaps.append(gap)
                run.actionsKeptWithoutStates += kept.count
                if kept.isEmpty || needsResync {
                    needsResync = true
                } else {
                    stopped = !replayKept(kept, replayer: replayer, extras: &extras, run: &run)
                }
            case .end(let end):
                run.end = end
            case .note:
                break  // A note is for people: replay neither runs nor counts it.
            case .call(let call):
                effects.recorded(call)
            case .effectEnd(let end):
                effects.recorded(end)
            case .action(var action):
                run.actionCount += 1
                var outcome = StepOutcome.stopped
                if let lastStep = options.lastStep, action.sequence > lastStep {
                    stopped = true
                } else {
                    options.willReplay?(action)
                    effects.recordedSend(action)
                    let resync = needsResync
                    outcome =
                        resync
                        ? .needsRecordedState
                        : apply(action, recordedStateBytes: recordedStateBytes(), replayer: replayer, run: &run)
                    if outcome == .needsRecordedState {
                        try buildState(&action)
                        outcome = settle(
                            action, replayer: replayer, resync: resync, preceding: extras.precedingActions, run: &run)
                    }
                    stopped = outcome == .stopped
                    needsResync = false
                    let compared =
                        outcome == .replayed || outcome == .replayedRecordedBytes
                        || run.divergences.last?.step == action.sequence
                    run.endUnrecordedSteps(checked: compared)
                    if !stopped && !resync { effects.applied(action) }
                }
                if outcome == .replayedRecordedBytes || outcome == .loadedRecordedState {
                    extras.drift?.countRecordedState()
                } else if extras.drift != nil {
                    try buildState(&action)
                    extras.drift?.checkRecordedState(of: action)
                }
                extras.precedingActions.append(action)
            }
        }
        guard loaded else { return run.report }
        (run.effectDivergences, run.effects) = effects.finish(reachedEnd: !stopped, progress: options.endingEffectRuns)
        if stopped && run.effectActionsAfterStop > 0 {
            run.effects.skip(.replayStopped, effect: nil, actions: run.effectActionsAfterStop)
        }
        if run.verdictOverride == nil {
            run.finalState = try? replayer.currentState()
        }
        return run.report
    }

    /// Replays the actions a gap kept, which have no recorded states: the next recorded state is compared with the
    /// state they lead to.
    /// - Returns: Whether replay goes on: `false` when an action does not decode or the last step asked for is
    ///   among them.
    private func replayKept(
        _ actions: [ActionEvent], replayer: any StateReplayer, extras: inout ReplayExtras, run: inout ReplayRun
    ) -> Bool {
        for action in actions {
            if let lastStep = options.lastStep, action.sequence > lastStep { return false }
            extras.drift?.checkAction(action)
            options.willReplay?(action)
            do {
                try replayer.apply(action.action)
            } catch {
                run.fail(error, step: action.sequence, actionName: action.name)
                return false
            }
            run.replayed(action.sequence)
            run.noteReplayedWithoutState(action.sequence)
            extras.precedingActions.append(action)
        }
        return true
    }

    /// Replays one action and compares the replayed state's canonical bytes with `recordedStateBytes`, the recorded
    /// state's bytes as its line holds them, when known.
    private func apply(
        _ action: ActionEvent, recordedStateBytes: ArraySlice<UInt8>?, replayer: any StateReplayer, run: inout ReplayRun
    ) -> StepOutcome {
        do {
            try replayer.apply(action.action)
            run.replayed(action.sequence)
            if let recordedStateBytes, try replayer.encodes(as: recordedStateBytes) {
                run.stepsMatched += 1
                return .replayedRecordedBytes
            }
            return .needsRecordedState
        } catch {
            run.fail(error, step: action.sequence, actionName: action.name)
            return .stopped
        }
    }

    /// Finishes a step that needs the recorded state: after a gap, starts over from it; else compares the replayed
    /// state with it.
    private func settle(
        _ action: ActionEvent, replayer: any StateReplayer, resync: Bool, preceding: PrecedingActionWindow,
        run: inout ReplayRun
    ) -> StepOutcome {
        do {
            if resync {
                try replayer.load(action.state, as: .recordedState)
                return .loadedRecordedState
            }
            switch try replayer.compare(with: action.state, ignoring: options.ignoring) {
            case .equal(let ignored):
                run.stepsMatched += 1
                run.noteIgnored(ignored, step: action.sequence)
                return .replayed
            case .different(let difference):
                run.noteIgnored(difference.ignored, step: action.sequence)
                run.divergences.append(
                    Divergence(
                        step: action.sequence, actionName: action.name, action: action.action, origin: action.origin,
                        time: action.time, recorded: difference.recorded, replayed: difference.replayed,
                        diff: StateDiff(
                            from: difference.recorded, to: difference.replayed,
                            typeNotes: options.identity.noting(
                                [difference.recorded, difference.replayed], in: difference.typeNotes)),
                        precedingActions: preceding.actions, ignored: difference.ignored,
                        comparedAsJSON: difference.comparedAsJSON, unrecordedSteps: run.unrecordedSteps))
                guard options.findAllDivergences else { return .stopped }
                try replayer.load(action.state, as: .recordedState)
                return .loadedRecordedState
            }
        } catch {
            run.fail(error, step: action.sequence, actionName: action.name)
            return .stopped
        }
    }
}

/// How one replayed action ended.
private enum StepOutcome {
    /// Replay must stop.
    case stopped
    /// Replay goes on.
    case replayed
    /// Replay goes on, and the recorded state's bytes are the canonical encoding of the replayed state.
    case replayedRecordedBytes
    /// Replay goes on from the recorded state, which the state type has just read (after a gap, or after a
    /// divergence when every divergence is looked for).
    case loadedRecordedState
    /// The action is replayed (unless replay starts over after a gap), and the step needs the recorded state.
    case needsRecordedState
}

/// The findings of one replay while it runs.
private struct ReplayRun {
    let header: SessionHeader
    let ignoring: [String]
    var ignored: [IgnoredPattern] = []
    var verdictOverride: ReplayVerdict?
    var divergences: [Divergence] = []
    var gaps: [GapEvent] = []
    var actionCount = 0
    var stepsReplayed = 0
    /// The step of the last action replayed.
    var lastStepReplayed: Int?
    var stepsMatched = 0
    var end: EndEvent?
    var finalState: JSONValue?
    var effectDivergences: [EffectDivergence] = []
    var effects = EffectCoverage()
    /// Effect actions read after replay stopped, which no rerun was compared with.
    var effectActionsAfterStop = 0
    /// The steps replayed from gaps' kept actions and checked by the comparison of a recorded state after them,
    /// merged where they follow each other.
    var stepsWithoutStates: [ClosedRange<Int>] = []
    /// How many actions the session's gaps kept.
    var actionsKeptWithoutStates = 0
    /// The steps replayed from gaps' kept actions since the last step with a recorded state.
    var unrecordedSteps: ClosedRange<Int>?

    init(header: SessionHeader, ignoring: [String]) {
        self.header = header
        self.ignoring = ignoring
    }

    /// Counts the differences a step's comparison ignored, by pattern.
    mutating func noteIgnored(_ differences: [IgnoredDifferences], step: Int) {
        ignored.note(differences, step: step)
    }

    mutating func fail(_ failure: ReplayStepFailure, step: Int, actionName: String?) {
        verdictOverride = .undecodable(
            Undecodable(
                step: step, actionName: actionName, part: failure.part, path: failure.path,
                message: failure.message))
    }

    /// Counts the action of `step` as replayed through the reducers.
    mutating func replayed(_ step: Int) {
        stepsReplayed += 1
        lastStepReplayed = step
    }

    /// Counts `step` as replayed from a gap's kept action, without a recorded state.
    mutating func noteReplayedWithoutState(_ step: Int) {
        unrecordedSteps = (unrecordedSteps?.lowerBound ?? step)...step
    }

    /// Ends the steps replayed without recorded states at a step with one; they count as replayed only when that
    /// state was `checked` (compared, equal or not): a state loaded to start over, or one that does not decode,
    /// checks nothing before it, and neither does the session's end.
    mutating func endUnrecordedSteps(checked: Bool) {
        defer { unrecordedSteps = nil }
        guard checked, let steps = unrecordedSteps else { return }
        if let last = stepsWithoutStates.last, last.upperBound + 1 == steps.lowerBound {
            stepsWithoutStates[stepsWithoutStates.count - 1] = last.lowerBound...steps.upperBound
        } else {
            stepsWithoutStates.append(steps)
        }
    }

    /// Counts an event seen after replay stopped, so the report still describes the whole session.
    mutating func count(_ event: SessionEvent) {
        switch event {
        case .action: actionCount += 1
        case .gap(var gap):
            actionsKeptWithoutStates += gap.actions.count
            gap.actions = []
            gaps.append(gap)
        case .end(let end): self.end = end
        case .header, .call, .effectEnd, .note: break
        }
    }

    var report: ReplayReport {
        let verdict: ReplayVerdict
        if let firstEffect = effectDivergences.first, firstEffect.step < divergences.first?.step ?? .max,
            verdictOverride.map({ if case .undecodable(let failure) = $0 { firstEffect.step < failure.step } else { true } }) ?? true
        {
            verdict = .effectDiverged(firstEffect)
        } else if let first = divergences.first {
            verdict = .diverged(first)
        } else if let verdictOverride {
            verdict = verdictOverride
        } else {
            verdict = .match
        }
        var report = ReplayReport(
            header: header, verdict: verdict, divergences: divergences, gaps: gaps, actionCount: actionCount,
            stepsReplayed: stepsReplayed, stepsMatched: stepsMatched, end: end, finalState: finalState, ignoring: ignoring,
            ignored: ignored, effectDivergences: effectDivergences, effects: effects,
            stepsWithoutStates: stepsWithoutStates, actionsKeptWithoutStates: actionsKeptWithoutStates,
            lastStepReplayed: lastStepReplayed)
        if report.verdict == .match, case let unreplayed = report.unreplayedGaps, !unreplayed.isEmpty {
            report.verdict = .incomplete(gaps: unreplayed)
        }
        return report
    }
}
