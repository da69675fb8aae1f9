import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import Testing

/// `text` parsed as JSON.
func json(_ text: String) -> JSONValue {
    try! JSONValue(parsing: Array(text.utf8))
}

/// A scoreboard whose replayable effect posts each score and reports the receipt, and a timer that ticks.
enum Board {
    struct State: Codable, Equatable, Sendable {
        var home = 0
        var receipt: Int?
        var failure: String?
        var ticks = 0
    }

    enum Action: Codable, Equatable, Sendable {
        case scored(Int)
        case posted(receipt: Int)
        case failed(String)
        case start
        case tick
        case stop
    }

    static let reducer = Reducer<State, Action> { state, action in
        switch action {
        case .scored(let points): state.home += points
        case .posted(let receipt): state.receipt = receipt
        case .failed(let reason): state.failure = reason
        case .start, .stop: break
        case .tick: state.ticks += 1
        }
    }

    /// How a changed effect behaves.
    enum Change {
        case sendsAnotherAction, sendsNothing, sendsTwice, callsAnotherName, postsAnotherInput, logsAfterPosting
    }

    /// Posts the score after each `scored`; `change` breaks it the way a regression would.
    static func postScore(_ change: Change? = nil) -> Effect<State, Action> {
        Effect("post score", replay: .rerun) { action, context in
            guard case .scored = action else { return }
            let home = context.state.home + (change == .postsAnotherInput ? 1 : 0)
            do {
                let name = change == .callsAnotherName ? "score.put" : "score.post"
                let receipt: Int = try await context.call(name, with: home) { home in 1000 + home }
                switch change {
                case .sendsAnotherAction: context.send(.failed("no"))
                case .sendsNothing: break
                case .sendsTwice:
                    context.send(.posted(receipt: receipt))
                    context.send(.posted(receipt: receipt))
                case .logsAfterPosting:
                    context.send(.posted(receipt: receipt))
                    try await context.call("score.log") {}
                default: context.send(.posted(receipt: receipt))
                }
            } catch {
                context.send(.failed("\(error)"))
            }
        }
    }

    /// Ticks every second on the context's clock after `start`, until cancelled.
    static let timer = Effect<State, Action>("timer", replay: .rerun) { action, context in
        guard case .start = action else { return }
        while true {
            do {
                try await context.clock.sleep(for: .seconds(1))
            } catch {
                return
            }
            context.send(.tick)
        }
    }

    /// A timer that `start` starts and `stop` stops (when `stops`), under one cancellation id.
    static func stoppableTimer(stops: Bool = true) -> Effect<State, Action> {
        Effect("timer", replay: .rerun) { action, context in
            switch action {
            case .start:
                await context.cancellable(id: "timer", cancelInFlight: true) {
                    while true {
                        try await context.clock.sleep(for: .seconds(1))
                        context.send(.tick)
                    }
                }
            case .stop where stops:
                context.cancel(id: "timer")
            default:
                break
            }
        }
    }

    static func store(_ effects: [Effect<State, Action>]) -> ReplayableStore {
        ReplayableStore(id: "board", reducer: reducer, effects: effects)
    }
}

/// Builds a board session line by line, keeping the recorded state.
struct BoardSession {
    private(set) var events: [SessionEvent] = []
    private var state = Board.State()
    private var sequence = 0
    let effects: [String]
    let format: Int
    var redaction = Redaction()

    init(effects: [String] = ["post score"], format: Int = 2) {
        self.effects = effects
        self.format = format
    }

    var session: Session {
        Session(
            header: SessionHeader(
                formatVersion: format, sessionID: "s", storeID: "board", app: AppInfo(name: "Tests"),
                startedAt: "2026-11-26T00:00:00.000Z", host: "test", pid: 1,
                initialState: try! CanonicalJSONEncoder().encode(Board.State()), redaction: redaction,
                effects: effects),
            events: events)
    }

    mutating func action(_ action: Board.Action, cause: Int? = nil, effect: String? = nil) {
        sequence += 1
        Board.reducer.reduce(&state, action)
        events.append(
            .action(
                ActionEvent(
                    sequence: sequence, time: Double(sequence), name: ActionName.of(action),
                    action: try! CanonicalJSONEncoder().encode(action), origin: cause.map { .effect(cause: $0) } ?? .app,
                    state: try! CanonicalJSONEncoder().encode(state), effect: format >= 2 ? effect : nil)))
    }

    mutating func call(
        cause: Int, effect: String = "post score", index: Int = 0, name: String = "score.post", input: JSONValue?,
        result: EffectCallResult
    ) {
        events.append(
            .call(
                EffectCallEvent(
                    cause: cause, effect: effect, index: index, name: name, time: Double(sequence), input: input,
                    result: result)))
    }

    mutating func end(
        cause: Int, effect: String = "post score", calls: Int, sent: Int, outcome: EffectEndEvent.Outcome = .finished
    ) {
        events.append(
            .effectEnd(
                EffectEndEvent(cause: cause, effect: effect, outcome: outcome, calls: calls, sent: sent, time: Double(sequence))))
    }

    /// A gap of one action the recorder dropped (its change to the state is lost with it).
    mutating func gap() {
        sequence += 1
        events.append(.gap(GapEvent(firstSequence: sequence, lastSequence: sequence, reason: .bufferFull)))
    }

    /// The post-score run of `cause`: it reads the state `stepsLater` steps after its cause, posts `home` and sends
    /// the receipt, as the correct effect records it.
    mutating func post(cause: Int, home: Int, stateStepsLater: Int = 0) {
        call(cause: cause, index: 0, name: "$state", input: nil, result: .value(.integer(Int64(stateStepsLater))))
        call(cause: cause, index: 1, input: .integer(Int64(home)), result: .value(.integer(Int64(1000 + home))))
        action(.posted(receipt: 1000 + home), cause: cause, effect: "post score")
        end(cause: cause, calls: 2, sent: 1)
    }

    /// `count` ticks of the timer that step 1 started: each a second's sleep and a tick.
    mutating func ticks(_ count: Int) {
        for tick in 0..<count {
            call(
                cause: 1, effect: "timer", index: tick, name: "$clock.sleep", input: json(#"{"for":1000000000}"#),
                result: .value(.null))
            action(.tick, cause: 1, effect: "timer")
        }
    }

    /// A score of `points`, its post, and the posted receipt, as the correct effect records them.
    mutating func scoreAndPost(_ points: Int, home: Int) {
        action(.scored(points))
        post(cause: sequence, home: home)
    }
}

@Suite struct EffectReplayTests {
    /// Two scores, each posted, recorded by the correct effect.
    private var twoPosts: Session {
        var builder = BoardSession()
        builder.scoreAndPost(2, home: 2)
        builder.scoreAndPost(3, home: 5)
        return builder.session
    }

    private func replay(_ session: Session, _ effects: [Effect<Board.State, Board.Action>]) -> ReplayReport {
        ReplayEngine(stores: [Board.store(effects)]).replay(session)
    }

    @Test func anUnchangedEffectMatchesAndTheReportSaysWhatWasCompared() {
        let report = replay(twoPosts, [Board.postScore()])
        #expect(report.verdict == .match)
        #expect(report.effects.runsReplayed == 2)
        #expect(report.effects.inputsFed == 4)
        #expect(report.effects.actionsCompared == 2)
        #expect(report.effects.actionsEqual == 2)
        #expect(report.effects.notChecked.isEmpty)
        #expect(
            report.explanation(source: "s.jsonl").split(separator: "\n").last
                == "match: 4 states and 2 effect actions equal (2 effect runs replayed from 4 recorded inputs)")
    }

    @Test func anEffectThatSendsAnotherActionDivergesAtTheRecordedActionsStep() {
        let report = replay(twoPosts, [Board.postScore(.sendsAnotherAction)])
        guard case .effectDiverged(let divergence) = report.verdict else {
            Issue.record("expected an effect divergence, got \(report.verdict)")
            return
        }
        #expect(divergence.step == 2)
        #expect(divergence.cause == 1)
        #expect(divergence.causeName == "scored")
        #expect(divergence.effect == "post score")
        guard case .actionDiffers(let recorded, let sent, _) = divergence.kind else {
            Issue.record("expected another action, got \(divergence.kind)")
            return
        }
        #expect(recorded == EffectAction(name: "posted", action: json(#"{"posted":{"receipt":1002}}"#), step: 2))
        #expect(sent == EffectAction(name: "failed", action: json(#"{"failed":{"_0":"no"}}"#)))
        #expect(report.effectDivergences.map(\.step) == [2, 4])
        #expect(
            report.explanation(source: "s.jsonl") == """
                s.jsonl: store "board", 4 actions, recorded by Tests on 2026-11-26, no end line (still recording, or cut off)
                effect diverged at step 2 of 4: "post score", started by step 1 scored(2)
                  the effect sent another action (- recorded at step 2, + sent)
                  - posted(receipt: 1002)
                  + failed("no")
                  2 effect runs diverged, at steps 2, 4
                """)
    }

    @Test func anEffectThatNoLongerSendsIsFoundAtTheActionItDidNotSend() {
        let report = replay(twoPosts, [Board.postScore(.sendsNothing)])
        guard case .effectDiverged(let divergence) = report.verdict, case .actionNotSent(let recorded) = divergence.kind else {
            Issue.record("expected an action not sent, got \(report.verdict)")
            return
        }
        #expect(divergence.step == 2)
        #expect(recorded.name == "posted")
    }

    @Test func anEffectThatSendsAnExtraActionIsFoundAtItsRunsEnd() {
        let report = replay(twoPosts, [Board.postScore(.sendsTwice)])
        guard case .effectDiverged(let divergence) = report.verdict,
            case .actionNotRecorded(let sent) = divergence.kind
        else {
            Issue.record("expected an action not recorded, got \(report.verdict)")
            return
        }
        #expect(divergence.cause == 1)
        #expect(sent == EffectAction(name: "posted", action: json(#"{"posted":{"receipt":1002}}"#)))
    }

    @Test func aCallUnderAnotherNameIsACallChange() {
        let report = replay(twoPosts, [Board.postScore(.callsAnotherName)])
        guard case .effectDiverged(let divergence) = report.verdict else {
            Issue.record("expected an effect divergence, got \(report.verdict)")
            return
        }
        #expect(divergence.kind == .callChanged(index: 1, recorded: "score.post", made: "score.put"))
        #expect(divergence.step == 1)
    }

    @Test func aCallGivenAnotherInputIsFoundBeforeItsAnswerIsUsed() {
        let report = replay(twoPosts, [Board.postScore(.postsAnotherInput)])
        guard case .effectDiverged(let divergence) = report.verdict,
            case .callInputDiffers(let name, let index, let diff) = divergence.kind
        else {
            Issue.record("expected another input, got \(report.verdict)")
            return
        }
        #expect(name == "score.post")
        #expect(index == 1)
        #expect(diff.changes.count == 1)
    }

    @Test func aRecordedErrorIsThrownAgainInReplay() {
        var builder = BoardSession()
        builder.action(.scored(2))
        builder.call(cause: 1, index: 0, name: "$state", input: nil, result: .value(json("0")))
        builder.call(
            cause: 1, index: 1, input: json("2"), result: .error(RecordedCallError(type: "URLError", message: "offline")))
        builder.action(.failed("offline"), cause: 1, effect: "post score")
        builder.end(cause: 1, calls: 2, sent: 1)
        let report = replay(builder.session, [Board.postScore()])
        #expect(report.verdict == .match)
        #expect(report.effects.actionsEqual == 1)
    }

    @Test func aSecretInputIsComparedAsTheRecorderWroteIt() {
        // Given a session whose post input is secret, so the recorder wrote it as 0
        var builder = BoardSession()
        builder.redaction = Redaction(calls: ["score.post:input"])
        builder.action(.scored(2))
        builder.call(cause: 1, index: 0, name: "$state", input: nil, result: .value(json("0")))
        builder.call(cause: 1, index: 1, input: json("0"), result: .value(json("1002")))
        builder.action(.posted(receipt: 1002), cause: 1, effect: "post score")
        builder.end(cause: 1, calls: 2, sent: 1)

        // When it is replayed, the effect posting the real score
        let report = replay(builder.session, [Board.postScore()])

        // Then the input is masked before it is compared
        #expect(report.verdict == .match)
    }

    @Test func aReducerRegressionIsStillFoundAsBefore() {
        let broken = ReplayableStore(
            id: "board",
            reducer: Reducer<Board.State, Board.Action> { state, action in
                if case .posted = action { return }
                Board.reducer.reduce(&state, action)
            }, effects: [Board.postScore()])
        let report = ReplayEngine(stores: [broken]).replay(twoPosts)
        guard case .diverged(let divergence) = report.verdict else {
            Issue.record("expected a state divergence, got \(report.verdict)")
            return
        }
        #expect(divergence.step == 2)
    }

    @Test func aSessionWithoutEffectLinesStillReplaysAndSaysItsEffectsWereNotChecked() {
        var builder = BoardSession(effects: [], format: 1)
        builder.action(.scored(2))
        builder.action(.posted(receipt: 1002), cause: 1)
        let report = replay(builder.session, [Board.postScore()])
        #expect(report.verdict == .match)
        #expect(report.effects.notChecked == [EffectsNotChecked(reason: .formatOne, effects: [], actions: 1)])
        #expect(
            report.explanation(source: "s.jsonl").split(separator: "\n").last
                == "match: all 2 replayed states equal the recorded ones; not checked: 1 effect action from a session that records no effect inputs (format 1)")
    }

    @Test func anEffectTheHostDoesNotRerunIsNotCheckedAndSaysWhy() {
        let report = replay(twoPosts, [])
        #expect(report.verdict == .match)
        #expect(report.effects.notChecked == [EffectsNotChecked(reason: .notInHost, effects: ["post score"], actions: 2)])
    }

    @Test func aTimerStillTickingWhenTheSessionEndedReplaysWithoutHanging() {
        // Given a timer that ticked three times, and was sleeping when the session ended
        var builder = BoardSession(effects: ["timer"])
        builder.action(.start)
        builder.ticks(3)

        // When it is replayed
        let report = replay(builder.session, [Board.timer])

        // Then every tick is compared, and the run still sleeping at the end is no divergence
        #expect(report.verdict == .match)
        #expect(report.effects.actionsEqual == 3)
        #expect(report.effects.inputsFed == 3)
    }

    @Test func aTimerThatStopsEarlyIsACallTheEffectDidNotMake() {
        var builder = BoardSession(effects: ["timer"])
        builder.action(.start)
        builder.ticks(3)
        let stopsAfterTwo = Effect<Board.State, Board.Action>("timer", replay: .rerun) { action, context in
            guard case .start = action else { return }
            for _ in 0..<2 {
                try? await context.clock.sleep(for: .seconds(1))
                context.send(.tick)
            }
        }
        let report = replay(builder.session, [stopsAfterTwo])
        guard case .effectDiverged(let divergence) = report.verdict else {
            Issue.record("expected an effect divergence, got \(report.verdict)")
            return
        }
        #expect(divergence.kind == .callNotMade(name: "$clock.sleep", index: 2))
    }

    /// A timer started, ticking twice, then stopped: its third sleep cancelled by the stop.
    private var stoppedTimer: Session {
        var builder = BoardSession(effects: ["timer"])
        builder.action(.start)
        builder.ticks(2)
        builder.action(.stop)
        builder.call(
            cause: 1, effect: "timer", index: 2, name: "$clock.sleep", input: json(#"{"for":1000000000}"#),
            result: .cancelled)
        builder.end(cause: 1, effect: "timer", calls: 3, sent: 2)
        return builder.session
    }

    @Test func aTimerStoppedAsInTheRecordingMatches() {
        let report = replay(stoppedTimer, [Board.stoppableTimer()])
        #expect(report.verdict == .match)
        #expect(report.effects.actionsEqual == 2)
    }

    @Test func aStopThatNoLongerCancelsTheTimerIsACancellationThatChanged() {
        let report = replay(stoppedTimer, [Board.stoppableTimer(stops: false)])
        guard case .effectDiverged(let divergence) = report.verdict else {
            Issue.record("expected an effect divergence, got \(report.verdict)")
            return
        }
        #expect(divergence.kind == .cancellationChanged(name: "$clock.sleep", index: 2, recordedCancelled: true))
        #expect(divergence.step == 4)
    }

    @Test func aTimerStartedAgainBeforeItsFirstTickIsCancelledAsInTheRecording() {
        // Given a start tapped twice: the second start cancels the first timer while it waits for its first sleep
        var builder = BoardSession(effects: ["timer"])
        builder.action(.start)
        builder.action(.start)
        builder.call(
            cause: 1, effect: "timer", index: 0, name: "$clock.sleep", input: json(#"{"for":1000000000}"#),
            result: .cancelled)
        builder.end(cause: 1, effect: "timer", calls: 1, sent: 0)
        builder.call(
            cause: 2, effect: "timer", index: 0, name: "$clock.sleep", input: json(#"{"for":1000000000}"#),
            result: .value(.null))
        builder.action(.tick, cause: 2, effect: "timer")

        // When it is replayed, then the first run's cancelled sleep is the one the rerun was cancelled in
        let report = replay(builder.session, [Board.stoppableTimer()])
        #expect(report.verdict == .match)
        #expect(report.effects.actionsEqual == 1)
    }

    @Test func aRunThatEndsOtherwiseThanInTheRecordingIsAnOutcomeThatChanged() {
        // Given a run whose task was cancelled in the recording after it sent its tick
        var builder = BoardSession(effects: ["ticks once"])
        builder.action(.start)
        builder.action(.tick, cause: 1, effect: "ticks once")
        builder.end(cause: 1, effect: "ticks once", calls: 0, sent: 1, outcome: .cancelled)
        let ticksOnce = Effect<Board.State, Board.Action>("ticks once", replay: .rerun) { action, context in
            guard case .start = action else { return }
            context.send(.tick)
        }

        // When the rerun finishes
        let report = replay(builder.session, [ticksOnce])

        // Then the end differs, after the tick compared equal
        guard case .effectDiverged(let divergence) = report.verdict else {
            Issue.record("expected an effect divergence, got \(report.verdict)")
            return
        }
        #expect(divergence.kind == .outcomeChanged(recorded: .cancelled, replayed: .finished))
        #expect(report.effects.actionsEqual == 1)
    }

    @Test func aRunThatWaitsOnSomethingOutsideItsContextIsNotCheckedAndReplayGoesOn() {
        // Given an effect that waits on a continuation nobody resumes, as one awaiting its own task or actor would
        var builder = BoardSession(effects: ["stuck"])
        builder.action(.start)
        builder.action(.tick)
        let stuck = Effect<Board.State, Board.Action>("stuck", replay: .rerun) { action, context in
            guard case .start = action else { return }
            await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
            context.send(.tick)
        }

        // When it is replayed, then replay ends, the states match, and the run is reported as not checked
        let report = replay(builder.session, [stuck])
        #expect(report.verdict == .match)
        #expect(report.effects.notChecked == [EffectsNotChecked(reason: .reachedOutside, effects: ["stuck"], actions: 0)])
    }

    @Test func twoRunsWhoseSendsInterleaveOtherwiseAreNoDivergence() {
        // Given two scores whose posts answered in the opposite order, the first one having read the state after
        // the second score
        var builder = BoardSession()
        builder.action(.scored(2))
        builder.action(.scored(3))
        builder.post(cause: 2, home: 5)
        builder.post(cause: 1, home: 5, stateStepsLater: 1)

        let report = replay(builder.session, [Board.postScore()])
        #expect(report.verdict == .match)
        #expect(report.effects.actionsEqual == 2)
    }

    @Test func anExtraCallAfterTheRecordedRunFinishedIsACallTheRecordingDoesNotHave() {
        // Given two posts, each run finished in the recording after its post and its receipt
        // When the effect now logs the receipt after sending it
        let report = replay(twoPosts, [Board.postScore(.logsAfterPosting)])

        // Then the first run's log call is found when its recorded end is read, named with its index
        guard case .effectDiverged(let divergence) = report.verdict else {
            Issue.record("expected an effect divergence, got \(report.verdict)")
            return
        }
        #expect(divergence.kind == .callNotRecorded(name: "score.log", index: 2))
        #expect(divergence.step == 2)
        #expect(divergence.cause == 1)
        #expect(report.effects.actionsEqual == 2)
        #expect(report.effectDivergences.map(\.kind) == [
            .callNotRecorded(name: "score.log", index: 2), .callNotRecorded(name: "score.log", index: 2),
        ])
    }

    /// A run of "sync" started by step 1 that fetched `first` then `second`, sent a tick and finished.
    private func twoCalls(_ first: String, _ second: String) -> Session {
        var builder = BoardSession(effects: ["sync"])
        builder.action(.start)
        builder.call(cause: 1, effect: "sync", index: 0, name: first, input: nil, result: .value(json("1")))
        builder.call(cause: 1, effect: "sync", index: 1, name: second, input: nil, result: .value(json("2")))
        builder.action(.tick, cause: 1, effect: "sync")
        builder.end(cause: 1, effect: "sync", calls: 2, sent: 1)
        return builder.session
    }

    /// An effect "sync" that fetches `first` then `second` after `start`, then sends a tick.
    private func sync(_ first: String, _ second: String) -> Effect<Board.State, Board.Action> {
        Effect("sync", replay: .rerun) { action, context in
            guard case .start = action else { return }
            do {
                let _: Int = try await context.call(first) { 1 }
                let _: Int = try await context.call(second) { 2 }
                context.send(.tick)
            } catch {
                context.send(.failed("\(error)"))
            }
        }
    }

    @Test func twoCallsMadeInTheOtherOrderAreACallChangeNamingBoth() {
        // Given a run that fetched the todos, then the user
        // When the effect now fetches the user first
        let report = replay(twoCalls("todos.fetch", "user.fetch"), [sync("user.fetch", "todos.fetch")])

        // Then the first call differs, and the report names the call made and the call recorded
        guard case .effectDiverged(let divergence) = report.verdict else {
            Issue.record("expected an effect divergence, got \(report.verdict)")
            return
        }
        #expect(divergence.kind == .callChanged(index: 0, recorded: "todos.fetch", made: "user.fetch"))
        #expect(divergence.step == 1)
        #expect(divergence.effect == "sync")
        #expect(divergence.summary.contains("'user.fetch'"))
        #expect(divergence.summary.contains("'todos.fetch'"))
    }

    @Test func twoCallsMadeInTheRecordedOrderMatch() {
        let report = replay(twoCalls("todos.fetch", "user.fetch"), [sync("todos.fetch", "user.fetch")])
        #expect(report.verdict == .match)
        #expect(report.effects.inputsFed == 2)
        #expect(report.effects.actionsEqual == 1)
    }

    @Test func aTimerThatFinishedInTheRecordingAndNowSleepsOnIsACallTheRecordingDoesNotHave() {
        // Given a timer that ticked twice and finished
        var builder = BoardSession(effects: ["timer"])
        builder.action(.start)
        builder.ticks(2)
        builder.end(cause: 1, effect: "timer", calls: 2, sent: 2)
        builder.action(.stop)

        // When the timer now ticks until cancelled, so its run sleeps a third time past the recorded inputs
        let report = replay(builder.session, [Board.timer])

        // Then the run still running where the recorded one finished is a divergence naming the sleep it waits in
        guard case .effectDiverged(let divergence) = report.verdict else {
            Issue.record("expected an effect divergence, got \(report.verdict)")
            return
        }
        #expect(divergence.kind == .callNotRecorded(name: "$clock.sleep", index: 2))
        #expect(divergence.step == 3)
        #expect(report.effects.actionsEqual == 2)
    }

    @Test func aRunThatFinishedInTheRecordingAndNowTakesAnotherInputWithoutSuspendingDivergesAtTheEnd() {
        // Given a run that sent its tick and finished
        var builder = BoardSession(effects: ["ticks once"])
        builder.action(.start)
        builder.action(.tick, cause: 1, effect: "ticks once")
        builder.end(cause: 1, effect: "ticks once", calls: 0, sent: 1)
        builder.action(.stop)
        let ticksThenDraws = Effect<Board.State, Board.Action>("ticks once", replay: .rerun) { action, context in
            guard case .start = action else { return }
            context.send(.tick)
            _ = context.uuid()
        }

        // When the effect now draws a UUID after its tick, an input taken without suspending
        let report = replay(builder.session, [ticksThenDraws])

        // Then the run, still waiting for that input at the end, is a call the recording does not have
        guard case .effectDiverged(let divergence) = report.verdict else {
            Issue.record("expected an effect divergence, got \(report.verdict)")
            return
        }
        #expect(divergence.kind == .callNotRecorded(name: "$uuid", index: 0))
        #expect(report.effects.actionsEqual == 1)
        // and the runs of the later steps, queued behind the waiting one and doing nothing, are no runs in flight
        #expect(report.effects.notChecked.isEmpty)
    }

    @Test func aRunWaitingWithoutSuspendingForAnInputPastItsRecordedEndDivergesThereAndHoldsUpNoLaterRun() {
        // Given two runs that each drew a UUID, sent it and finished
        let first = "D238BD0B-7BD1-41AA-AC5B-0AE19EBA194E"
        let second = "9C6C557E-27D8-4160-AEF8-2B27E5E6A06C"
        var builder = BoardSession(effects: ["draws"])
        for (cause, uuid) in [(1, first), (3, second)] {
            builder.action(.scored(1))
            builder.call(cause: cause, effect: "draws", name: "$uuid", input: nil, result: .value(.string(uuid)))
            builder.action(.failed(uuid), cause: cause, effect: "draws")
            builder.end(cause: cause, effect: "draws", calls: 1, sent: 1)
        }
        let drawsTwice = Effect<Board.State, Board.Action>("draws", replay: .rerun) { action, context in
            guard case .scored = action else { return }
            context.send(.failed(context.uuid().uuidString))
            _ = context.uuid()
        }

        // When the effect now draws a second UUID after sending the first, an input taken without suspending that
        // the recording does not have
        let report = replay(builder.session, [drawsTwice])

        // Then each run diverges at that draw, found when its recorded end is read, and the second run still gets
        // its recorded UUID: the first one's wait did not hold it up until the session's end
        guard case .effectDiverged(let divergence) = report.verdict else {
            Issue.record("expected an effect divergence, got \(report.verdict)")
            return
        }
        #expect(divergence.kind == .callNotRecorded(name: "$uuid", index: 1))
        #expect(divergence.step == 2)
        #expect(report.effectDivergences.map(\.kind) == Array(repeating: .callNotRecorded(name: "$uuid", index: 1), count: 2))
        #expect(report.effects.actionsEqual == 2)
    }

    @Test func aRunThatSentAnotherActionAndThenTakesAnInputWithoutSuspendingHoldsUpNoLaterRun() {
        // Given three runs that each sent a receipt, then drew a UUID and finished
        let uuids = ["D238BD0B-7BD1-41AA-AC5B-0AE19EBA194E", "9C6C557E-27D8-4160-AEF8-2B27E5E6A06C", "0160EF14-3F77-4989-B8E1-0AF52B39F930"]
        var builder = BoardSession(effects: ["draws"])
        for (run, uuid) in uuids.enumerated() {
            let cause = 2 * run + 1
            builder.action(.scored(1))
            builder.call(cause: cause, effect: "draws", index: 0, name: "$state", input: nil, result: .value(.integer(0)))
            builder.action(.posted(receipt: run + 1), cause: cause, effect: "draws")
            builder.call(cause: cause, effect: "draws", index: 1, name: "$uuid", input: nil, result: .value(.string(uuid)))
            builder.end(cause: cause, effect: "draws", calls: 2, sent: 1)
        }
        // and then more steps than replay keeps states for the runs to read, each changing the state
        for _ in 0..<300 { builder.action(.tick) }
        func draws(sending receipt: @escaping @Sendable (Board.State) -> Int) -> Effect<Board.State, Board.Action> {
            Effect("draws", replay: .rerun) { action, context in
                guard case .scored = action else { return }
                context.send(.posted(receipt: receipt(context.state)))
                _ = context.uuid()
            }
        }
        #expect(replay(builder.session, [draws { $0.home + $0.ticks }]).verdict == .match)

        // When each run now sends another receipt, then draws its UUID, an input taken without suspending
        let report = replay(builder.session, [draws { $0.home * 10 + $0.ticks }])

        // Then each run diverges at its own receipt, sent from the state after its cause: the first one's draw,
        // which replay no longer feeds once the run diverged, did not hold the later runs up until the session's
        // end, where they read the last state
        #expect(report.effectDivergences.map(\.step) == [2, 4, 6])
        #expect(report.effectDivergences.map(\.kind) == (1...3).map { run in
            .actionDiffers(
                recorded: EffectAction(name: "posted", action: json(#"{"posted":{"receipt":\#(run)}}"#), step: 2 * run),
                sent: EffectAction(name: "posted", action: json(#"{"posted":{"receipt":\#(10 * run)}}"#)),
                diff: StateDiff(from: json(#"{"posted":{"receipt":\#(run)}}"#), to: json(#"{"posted":{"receipt":\#(10 * run)}}"#)))
        })
    }

    @Test func aRunCutByAGapWhileItWaitsForAnInputTakenWithoutSuspendingHoldsUpNoLaterRun() {
        // Given a run that lost every line to the recorder's full queue and the action it sent to a gap, then a run
        // recorded whole
        var builder = BoardSession(effects: ["draws"])
        builder.action(.scored(1))
        builder.gap()
        builder.action(.tick)  // the action after a gap starts over from its recorded state, and starts no run
        builder.action(.scored(2))
        builder.call(cause: 4, effect: "draws", name: "$random", input: json("[0,9]"), result: .value(.integer(7)))
        builder.action(.posted(receipt: 7), cause: 4, effect: "draws")
        builder.end(cause: 4, effect: "draws", calls: 1, sent: 1)
        let draws = Effect<Board.State, Board.Action>("draws", replay: .rerun) { action, context in
            guard case .scored = action else { return }
            context.send(.posted(receipt: context.random(in: 0...9)))
        }

        // When it is replayed: the first run waits for its draw, an input taken without suspending, when the gap
        // cuts it
        let report = replay(builder.session, [draws])

        // Then the later run is replayed from its recorded draw and matches; the session is incomplete, no more
        guard case .incomplete(let gaps) = report.verdict else {
            Issue.record("expected an incomplete session, got \(report.verdict)")
            return
        }
        #expect(gaps.map(\.firstSequence) == [2])
        #expect(report.effects.actionsEqual == 1)
        #expect(report.effects.runsReplayed == 1)
    }

    @Test func aRunInFlightWhenTheRecordingEndedThatNowFinishesIsNotCheckedAndSaysSo() {
        // Given a timer that ticked twice and was still sleeping when the recording ended (no end line for its run)
        var builder = BoardSession(effects: ["timer"])
        builder.action(.start)
        builder.ticks(2)
        let ticksTwice = Effect<Board.State, Board.Action>("timer", replay: .rerun) { action, context in
            guard case .start = action else { return }
            for _ in 0..<2 {
                try? await context.clock.sleep(for: .seconds(1))
                context.send(.tick)
            }
        }

        // When the timer now stops by itself after two ticks
        let report = replay(builder.session, [ticksTwice])

        // Then what the recorded run did after its last line is unknown: the finish is not compared, and the report
        // says the run was in flight when the session ended
        #expect(report.verdict == .match)
        #expect(report.effects.actionsEqual == 2)
        #expect(
            report.effects.notChecked == [EffectsNotChecked(reason: .inFlightAtEnd, effects: ["timer"], actions: 0)])
    }

    @Test func theReportCrossesJSONWithItsEffectFindings() throws {
        let report = replay(twoPosts, [Board.postScore(.sendsAnotherAction)])
        let read = try ReplayReport(jsonValue: report.jsonValue, header: report.header)
        #expect(read.verdict == report.verdict)
        #expect(read.effectDivergences == report.effectDivergences)
        #expect(read.effects == report.effects)
    }
}
