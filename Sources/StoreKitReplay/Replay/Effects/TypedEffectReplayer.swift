import StoreKitCore
import StoreKitJSON
import StoreKitSystem

/// Reruns the replayable effects of one session for one store type: each run starts when its action is replayed,
/// gets its recorded inputs as replay reads them, and what it sends and how it ends are compared with the recorded
/// run of the same action and effect. The sends are captured, never dispatched: the recorded actions drive the
/// reducer, so interleaving between runs never matters.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
final class TypedEffectReplayer<State: Codable & Equatable & Sendable, Action: Codable & Sendable>: EffectReplaying {
    /// One run, as far as replay has seen it.
    private struct Run {
        let causeName: String
        /// The starting action's JSON, its secret paths masked.
        let causeAction: JSONValue
        let task: Task<Void, Never>
        /// Recorded actions of the run not yet compared.
        var recordedSends: [EffectAction] = []
        /// Actions the rerun sent not yet compared, written out only when they are (most runs in flight when a
        /// session ends are only counted).
        var sent: [Action] = []
        /// Whether the recording or the rerun did anything in this run.
        var hadActivity = false
        /// How the recorded run ended, once its `effectEnd` is read.
        var recordedOutcome: EffectRunOutcome?
    }

    /// How long a run that waits on something outside its context may take to come back before it is given up.
    private static var outsideWaitSeconds: Double { 2 }

    private let effects: [Effect<State, Action>]
    private let names: Set<String>
    /// The CPU this replay's thread and the effects' share, where they can.
    private let cpu = EffectReplayCPU.holdForCallingThread()
    private let executor: ReplayExecutor
    private let inputs: RecordedEffectInputs
    private let cancellations: EffectCancellations
    private let state: Locked<State?>
    private let appliedAction: () -> Action?
    private let encode: (Action) -> JSONValue
    private let recordedJSON: (JSONValue) -> JSONValue
    private let captured = Locked<[(run: EffectRunKey, action: Action)]>([])
    /// The replayed states after the last steps, newest last, for the runs that read the state a few steps after
    /// their cause.
    private let recentStates = Locked<[(sequence: Int, state: State)]>([])
    /// How many recent states are kept.
    private static var recentStateCount: Int { 256 }
    private let ended = Locked(EndedRuns())
    private var runs: [EffectRunKey: Run] = [:]
    /// The runs that may have moved since the effects were last at rest (started, fed or cancelled, sent, ended,
    /// given a recorded line), and those still away outside their context: the only ones the next rest looks at, so
    /// a step costs what changed in it, not the number of runs in flight.
    private var unsettled: Set<EffectRunKey> = []
    /// The runs with sent or recorded actions not yet compared pairwise.
    private var uncompared: Set<EffectRunKey> = []
    /// The first step whose runs were started since the last gap.
    private var checkedFrom = 1
    private var step = 0
    private var divergences: [EffectDivergence] = []
    private var diverged: Set<EffectRunKey> = []
    private var coverage = EffectCoverage()

    /// How the rerun's runs ended, and which ended since replay last looked.
    private struct EndedRuns {
        var outcomes: [EffectRunKey: EffectRunOutcome] = [:]
        var since: [EffectRunKey] = []
    }

    /// A replayer for `effects`.
    /// - Parameters:
    ///   - state: The replayed state, as the reducer leaves it after each step.
    ///   - appliedAction: The action the reducer replayed last.
    ///   - encode: An action the way the session holds it (canonical JSON, secret paths masked).
    ///   - recordedJSON: A recorded action as the current types read it (migrated when the session needs it).
    ///   - redaction: The session's secret paths.
    init(
        effects: [Effect<State, Action>], state: Locked<State?>, appliedAction: @escaping () -> Action?,
        encode: @escaping (Action) -> JSONValue, recordedJSON: @escaping (JSONValue) -> JSONValue, redaction: Redaction
    ) {
        self.effects = effects
        self.names = Set(effects.map(\.name))
        self.state = state
        self.appliedAction = appliedAction
        self.encode = encode
        self.recordedJSON = recordedJSON
        executor = ReplayExecutor(cpu: cpu)
        inputs = RecordedEffectInputs(executor: executor, redaction: redaction)
        let executor = executor
        cancellations = EffectCancellations { work in Task(executorPreference: executor) { await work() } }
    }

    /// A replay that ended without ``finish(reachedEnd:)`` (it stopped at a line it could not read, or at a state it
    /// could not load) still ends its runs' waits and the effects' thread.
    deinit {
        inputs.finish()
        for run in runs.values { run.task.cancel() }
        executor.stop()
        cpu?.release()
    }

    func recordedSend(_ action: ActionEvent) {
        guard case .effect(let cause?) = action.origin, let effect = action.effect, names.contains(effect) else { return }
        guard cause >= checkedFrom else {
            coverage.skip(.gap, effect: effect, actions: 1)
            return
        }
        let key = EffectRunKey(cause: cause, effect: effect)
        let recorded = EffectAction(name: action.name, action: recordedJSON(action.action), step: action.sequence)
        guard !diverged.contains(key) else { return }
        guard runs.keys.contains(key) else {
            report(.actionNotSent(recorded: recorded), in: key, from: nil, at: action.sequence)
            return
        }
        runs[key]?.recordedSends.append(recorded)
        uncompared.insert(key)
        unsettled.insert(key)
        noteActivity(key)
    }

    func applied(_ action: ActionEvent) {
        step = action.sequence
        guard action.sequence >= checkedFrom, let typed = appliedAction(), let after = state.withLock({ $0 }) else {
            return
        }
        recentStates.withLock { recent in
            recent.append((action.sequence, after))
            if recent.count > Self.recentStateCount { recent.removeFirst(recent.count - Self.recentStateCount) }
        }
        for effect in effects {
            let key = EffectRunKey(cause: action.sequence, effect: effect.name)
            let run = EffectRun(cause: action.sequence, effect: effect.name, isReplayable: true, inputs: .replayed(inputs))
            let captured = captured
            let send = Send<Action> { sent in captured.withLock { $0.append((key, sent)) } }
            let recentStates = recentStates
            let cause = action.sequence
            let context = EffectContext<State, Action>(
                cause: cause,
                readState: { sequence in
                    recentStates.withLock { recent in
                        let latest = recent.last ?? (cause, after)
                        guard let sequence else { return latest }
                        // The newest state at or before `sequence`, found by halving: the states are in step order.
                        var low = 0
                        var high = recent.count
                        while low < high {
                            let middle = (low + high) / 2
                            if recent[middle].sequence <= sequence { low = middle + 1 } else { high = middle }
                        }
                        return low > 0 ? recent[low - 1] : latest
                    }
                }, sender: send, cancellations: cancellations, run: run)
            let ended = ended
            let task = Task(executorPreference: executor) {
                await effect.perform(typed, stateAfterAction: after, context: context)
                let outcome: EffectRunOutcome = Task.isCancelled ? .cancelled : .finished
                ended.withLock { ended in
                    ended.outcomes[key] = outcome
                    ended.since.append(key)
                }
            }
            runs[key] = Run(causeName: action.name, causeAction: recordedJSON(action.action), task: task)
            unsettled.insert(key)
        }
        settle()
    }

    func recorded(_ call: EffectCallEvent) {
        let key = EffectRunKey(cause: call.cause, effect: call.effect)
        guard names.contains(call.effect), call.cause >= checkedFrom, !diverged.contains(key) else { return }
        guard runs.keys.contains(key) else {
            report(.callNotMade(name: call.name, index: call.index), in: key, from: nil, at: step)
            return
        }
        noteActivity(key)
        // A run that ended takes no more inputs, unless this one is what it was waiting for when it was cancelled.
        if inputs.deliver(call) == .kept, hasEnded(key) {
            report(.callNotMade(name: call.name, index: call.index), in: key, from: runs[key], at: step)
            return
        }
        settle()
    }

    func recorded(_ end: EffectEndEvent) {
        let key = EffectRunKey(cause: end.cause, effect: end.effect)
        guard names.contains(end.effect), end.cause >= checkedFrom, runs.keys.contains(key) else { return }
        runs[key]?.recordedOutcome = end.outcome == .cancelled ? .cancelled : .finished
        unsettled.insert(key)
        settle()
        // The recording holds no input of the run past its recorded calls: a rerun still waiting for one waits for an
        // input the recording does not have. Judged now, not at the session's end: a run that waits without
        // suspending holds the effects' thread, and every later run would wait behind it until then.
        if runs[key] != nil, let request = inputs.request(awaitedBy: key), request.index >= end.calls {
            conclude(key, recordedOutcome: runs[key]?.recordedOutcome, awaiting: request)
            settle()
        }
    }

    func gap(_ gap: GapEvent) {
        for (key, run) in runs {
            run.task.cancel()
            coverage.skip(.gap, effect: key.effect, actions: run.recordedSends.count)
            forget(key)
        }
        // The action right after a gap takes its recorded state; its effects' runs are not started either.
        checkedFrom = gap.lastSequence + 2
    }

    func finish(
        reachedEnd: Bool, progress: ((EffectRunsEnding) -> Void)?
    ) -> (divergences: [EffectDivergence], coverage: EffectCoverage) {
        var ending = EffectRunsEnding(inFlight: runs.count, ended: 0, judged: 0)
        if reachedEnd {
            settle()
            ending.inFlight = runs.count
            progress?(ending)
            // The runs waiting for an input now wait for one the recording does not have; the runs queued behind a
            // run that waits without suspending have yet to run. Every wait ends now, and the runs that waited
            // are judged as they were: what they do after a wait that the session does not answer is no rerun.
            let awaiting = Dictionary(uniqueKeysWithValues: runs.keys.compactMap { key in
                inputs.request(awaitedBy: key).map { (key, $0) }
            })
            inputs.finish()
            waitForRunsToEnd(&ending, progress)
            collect(ignoring: Set(awaiting.keys))
            for (index, key) in runs.keys.sorted(by: { ($0.cause, $0.effect) < ($1.cause, $1.effect) }).enumerated() {
                conclude(key, recordedOutcome: runs[key]?.recordedOutcome, awaiting: awaiting[key])
                if index % Self.judgedPerProgress == Self.judgedPerProgress - 1 {
                    ending.judged = index + 1
                    progress?(ending)
                }
            }
        } else {
            progress?(ending)
            inputs.finish()
        }
        for run in runs.values { run.task.cancel() }
        waitForRunsToEnd(&ending, progress)
        executor.stop()
        cpu?.release()
        coverage.inputsFed = inputs.fedCount
        return (divergences.sorted { $0.step < $1.step }, coverage)
    }

    /// How often, in runs judged, the ending's progress is told.
    private static var judgedPerProgress: Int { 4096 }

    /// Waits until the effects are at rest with every wait for an input ended, telling `progress` how many runs
    /// have ended every quarter of a second meanwhile.
    private func waitForRunsToEnd(_ ending: inout EffectRunsEnding, _ progress: ((EffectRunsEnding) -> Void)?) {
        while true {
            let quiet = executor.waitUntilQuiet(seconds: 0.25)
            // Never down: the runs judged are forgotten.
            ending.ended = max(ending.ended, min(ending.inFlight, ended.withLock { $0.outcomes.count }))
            switch quiet {
            case .idle?:
                return
            case .waitingForInput?:
                continue  // A run the end of the inputs has just woken.
            case nil:
                progress?(ending)
            }
        }
    }

    /// Lets the runs go as far as the inputs read so far allow, then compares what they sent.
    private func settle() {
        while true {
            let quiet = executor.waitUntilQuiet()
            collect()
            guard quiet == .idle else { return }
            var outside: [EffectRunKey] = []
            for key in unsettled.sorted(by: { ($0.cause, $0.effect) < ($1.cause, $1.effect) }) {
                if judgeAtRest(key) { outside.append(key) } else { unsettled.remove(key) }
            }
            if outside.isEmpty { return }
            if executor.waitForWork(seconds: Self.outsideWaitSeconds) { continue }
            for key in outside {
                guard let run = runs[key] else { continue }
                run.task.cancel()
                coverage.skip(.reachedOutside, effect: key.effect, actions: run.recordedSends.count)
                forget(key)
            }
        }
    }

    /// Takes the actions the runs sent and what the input hand-overs found, and compares sent with recorded actions
    /// pairwise, in each run's order.
    private func collect(ignoring ignored: Set<EffectRunKey> = []) {
        let sends = captured.withLock { captured in
            defer { captured = [] }
            return captured
        }
        for send in sends where runs.keys.contains(send.run) && !diverged.contains(send.run) && !ignored.contains(send.run) {
            runs[send.run]?.sent.append(send.action)
            uncompared.insert(send.run)
            noteActivity(send.run)
        }
        for finding in inputs.takeFindings() where !diverged.contains(finding.run) {
            report(finding.kind, in: finding.run, from: runs[finding.run], at: step)
        }
        for key in inputs.takeChanged() where runs.keys.contains(key) { unsettled.insert(key) }
        let endedSince = ended.withLock { ended in
            defer { ended.since = [] }
            return ended.since
        }
        for key in endedSince {
            if runs.keys.contains(key) {
                unsettled.insert(key)
            } else {
                // A run forgotten before its task ended (stopped as reaching outside, or at a gap).
                ended.withLock { _ = $0.outcomes.removeValue(forKey: key) }
            }
        }
        let comparing = uncompared
        uncompared = []
        unsettled.formUnion(comparing)
        for key in comparing where !diverged.contains(key) {
            while let recorded = runs[key]?.recordedSends.first, let sentAction = runs[key]?.sent.first {
                runs[key]?.recordedSends.removeFirst()
                runs[key]?.sent.removeFirst()
                let sent = written(sentAction)
                coverage.actionsCompared += 1
                if recorded.action == sent.action {
                    coverage.actionsEqual += 1
                } else {
                    let diff = StateDiff(from: recorded.action, to: sent.action)
                    report(
                        .actionDiffers(recorded: recorded, sent: sent, diff: diff), in: key,
                        from: runs[key], at: recorded.step ?? step)
                    break
                }
            }
        }
    }

    /// Judges a run with every run at rest, and tells whether it is away outside its context (neither ended nor
    /// waiting for an input).
    ///
    /// A recorded action that a run which has ended or waits for an input has not sent, it will not send before its
    /// next input. A run that ended having done nothing, in the recording or the rerun, is done with. A run whose
    /// recorded run has ended is compared with it and done with.
    private func judgeAtRest(_ key: EffectRunKey) -> Bool {
        guard let run = runs[key] else { return false }
        let runEnded = hasEnded(key)
        let awaiting = inputs.request(awaitedBy: key)
        if !diverged.contains(key), let recorded = run.recordedSends.first, run.sent.isEmpty, runEnded || awaiting != nil {
            report(.actionNotSent(recorded: recorded), in: key, from: run, at: recorded.step ?? step)
        }
        if !run.hadActivity && runEnded && !inputs.wasCancelledWhileWaiting(key) {
            forget(key)
            return false
        }
        if let outcome = run.recordedOutcome {
            conclude(key, recordedOutcome: outcome, awaiting: awaiting)
            return false
        }
        // Asked again: a run stopped by a divergence just now no longer waits.
        return !hasEnded(key) && inputs.request(awaitedBy: key) == nil
    }

    /// Whether the rerun of a run has ended.
    private func hasEnded(_ key: EffectRunKey) -> Bool {
        ended.withLock { $0.outcomes[key] != nil }
    }

    /// Compares how a run ended with how it ended in the recording (`nil`: it had not ended when the session did),
    /// and forgets it; `awaiting` is the input the run waits for, if it waits.
    private func conclude(_ key: EffectRunKey, recordedOutcome: EffectRunOutcome?, awaiting: EffectInputRequest?) {
        guard let run = runs[key] else { return }
        defer {
            run.task.cancel()
            forget(key)
        }
        guard !diverged.contains(key) else { return }
        let replayed = ended.withLock { $0.outcomes[key] }
        if let request = awaiting {
            // Still waiting for an input: fine when the recorded run was still running too.
            if recordedOutcome != nil {
                report(.callNotRecorded(name: request.name, index: request.index), in: key, from: run, at: step)
            }
            return
        }
        if let unasked = inputs.unasked(by: key).first {
            report(.callNotMade(name: unasked.name, index: unasked.index), in: key, from: run, at: step)
            return
        }
        if let recorded = run.recordedSends.first {
            report(.actionNotSent(recorded: recorded), in: key, from: run, at: recorded.step ?? step)
            return
        }
        guard let recordedOutcome else {
            // The session ended while the run was in flight: what it did after its last recorded line is unknown. A
            // run that did nothing in either (one queued behind a run that waited without suspending) is no such run.
            if run.hadActivity, replayed != nil || !run.sent.isEmpty {
                coverage.skip(.inFlightAtEnd, effect: key.effect, actions: run.sent.count)
            }
            return
        }
        if let sent = run.sent.first {
            report(.actionNotRecorded(sent: written(sent)), in: key, from: run, at: step)
            return
        }
        if let replayed, replayed != recordedOutcome {
            report(.outcomeChanged(recorded: recordedOutcome, replayed: replayed), in: key, from: run, at: step)
        } else if replayed == nil {
            report(.outcomeChanged(recorded: recordedOutcome, replayed: .runningAtEnd), in: key, from: run, at: step)
        }
    }

    /// An action a run sent, as the session would hold it.
    private func written(_ action: Action) -> EffectAction {
        EffectAction(name: ActionName.of(action), action: encode(action))
    }

    /// Forgets a run replay is done with.
    private func forget(_ key: EffectRunKey) {
        runs[key] = nil
        unsettled.remove(key)
        uncompared.remove(key)
        ended.withLock { _ = $0.outcomes.removeValue(forKey: key) }
        inputs.forget(key)
    }

    /// Notes that the recording or the rerun did something in a run; the first time, counts the run as replayed.
    private func noteActivity(_ key: EffectRunKey) {
        guard runs[key]?.hadActivity == false else { return }
        runs[key]?.hadActivity = true
        coverage.runsReplayed += 1
    }

    /// Notes a run's first divergence and stops the run: its task is cancelled, and so are its waits for inputs,
    /// now and later, as replay feeds it none from here on. A run left waiting for an input taken without
    /// suspending would hold the effects' thread, and every later run would wait behind it until the session's end.
    private func report(_ kind: EffectDivergence.Kind, in key: EffectRunKey, from run: Run?, at step: Int) {
        guard diverged.insert(key).inserted else { return }
        divergences.append(
            EffectDivergence(
                step: step, cause: key.cause, causeName: run?.causeName ?? "", causeAction: run?.causeAction, effect: key.effect,
                kind: kind))
        runs[key]?.task.cancel()
        inputs.forget(key)
    }
}
