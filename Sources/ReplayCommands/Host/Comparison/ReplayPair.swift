import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import StoreKitSystem

/// Two replays of one session, by two versions of the code or by one host in two environments, compared with each
/// other rather than with the recording: the state after each step as canonical JSON (the places `ignoring` names
/// left out), then what each rerun effect did against the recorded inputs (for a session whose header lists replayable
/// effects). The two replays run side by side.
///
/// States are compared first, step by step, so the first disagreement is the first step whose state differs, or
/// whose replay one host did not get past; when the states agree everywhere and the session's effects were rerun,
/// each effect run's findings against the recording (what it sent and called where that differs, or nothing) must
/// be the same in both.
struct ReplayPair {
    /// One of the two replays.
    struct Side {
        /// How messages name it: `baseline 1a2b3c4`, `current`, `SWIFT_DETERMINISTIC_HASHING=1`.
        var name: String
        /// The host that replays it, in its environment.
        var client: ReplayHostClient
    }

    /// What comparing the two replays came to.
    struct Comparison {
        /// How many actions the session has (the steps the first replay went through).
        var actionCount: Int
        /// How many effect runs the replays reran.
        var effectRuns: Int
        /// Where they first disagree; `nil` when they agree everywhere.
        var disagreement: ReplayDisagreement?
    }

    /// The first replay (`-` in a state's diff).
    var first: Side
    /// The second replay (`+` in a state's diff).
    var second: Side
    /// The places whose values do not count.
    var ignoring: [JSONPathPattern] = []
    /// The members that identify the elements of arrays where it is not `id` (`.replay.json`'s `"identity"`).
    var identity: [IdentityKey] = []

    /// Replays `session` on both sides and compares them.
    /// - Parameter stopsDisagree: Whether a host that stops on one side and not the other (or at another step) is a
    ///   disagreement; when `false`, a stop is thrown.
    /// - Throws: ``CLIError`` when a replay fails otherwise (an unknown store, a value that no longer decodes), or a
    ///   host stops at the same step on both sides before any disagreement.
    func compare(_ session: SessionInput, stopsDisagree: Bool) throws(CLIError) -> Comparison {
        let (firstStates, secondStates) = try both { side throws(CLIError) in try side.client.exchange(ReplayHostRequest(command: .states), session: session) }
        let firstReplayed = try replayed(firstStates, session: session, stopsDisagree: stopsDisagree)
        let secondReplayed = try replayed(secondStates, session: session, stopsDisagree: stopsDisagree)
        let actionCount = max(firstReplayed.states.count, secondReplayed.states.count)
        for (left, right) in zip(firstReplayed.states, secondReplayed.states) {
            let compared = ignoring.isEmpty ? right.state : ignoring.overlay(from: left.state, onto: right.state).value
            guard left.state != compared else { continue }
            let notes = identity.noting([left.state, compared], in: firstReplayed.typeNotes.union(secondReplayed.typeNotes))
            return Comparison(
                actionCount: actionCount, effectRuns: 0,
                disagreement: try disagreement(
                    at: left.step, name: left.name, in: session,
                    .state(StateDiff(from: left.state, to: compared, typeNotes: notes)), actionCount))
        }
        if firstReplayed.stop != nil || secondReplayed.stop != nil {
            let firstStep = firstReplayed.stop?.lastStep?.step
            let secondStep = secondReplayed.stop?.lastStep?.step
            if firstStep == secondStep, let stop = firstReplayed.stop { throw stop.error }
            let stopped = [firstReplayed, secondReplayed].compactMap(\.stop).min { ($0.lastStep?.step ?? 0) < ($1.lastStep?.step ?? 0) }!
            let step = stopped.lastStep?.step ?? 0
            let firstError = firstStep == step ? firstReplayed.stop?.error : nil
            let secondError = secondStep == step ? secondReplayed.stop?.error : nil
            return Comparison(
                actionCount: actionCount, effectRuns: 0,
                disagreement: try disagreement(
                    at: step, name: stopped.lastStep?.name ?? "", in: session, .stop(first: firstError, second: secondError), actionCount))
        }
        // Effects are rerun only for a session whose header lists replayable ones; without any, the reports could
        // only agree.
        guard try !session.header().effects.isEmpty else {
            return Comparison(actionCount: actionCount, effectRuns: 0, disagreement: nil)
        }
        let (firstReport, secondReport) = try both { side throws(CLIError) in try report(of: session, side) }
        let runs = max(firstReport.effects.runsReplayed, secondReport.effects.runsReplayed)
        guard let effect = EffectDisagreement.first(between: firstReport.effectDivergences, and: secondReport.effectDivergences)
        else { return Comparison(actionCount: actionCount, effectRuns: runs, disagreement: nil) }
        let step = min(effect.first?.step ?? .max, effect.second?.step ?? .max)
        let name = firstReplayed.states.first { $0.step == step }?.name ?? ""
        return Comparison(
            actionCount: actionCount, effectRuns: runs, disagreement: try disagreement(at: step, name: name, in: session, .effect(effect), actionCount))
    }

    /// The disagreement at `step`, with the action `session` records there (the host's answers name it only) and
    /// how many steps the session covers, gaps included, as a replay report counts them.
    private func disagreement(
        at step: Int, name: String, in session: SessionInput, _ difference: ReplayDisagreement.Difference, _ actionCount: Int
    ) throws(CLIError) -> ReplayDisagreement {
        var action: JSONValue?
        var stepCount = 0
        let reader = { () throws(SessionReadError) in
            let reader = try SessionReader(path: session.path)
            reader.defersRecordedStates = true  // Only the sequence numbers and the action are read.
            return reader
        }
        try SessionScan.read(session, from: reader) { event throws(CLIError) in
            switch event {
            case .action(let recorded):
                stepCount = recorded.sequence
                if recorded.sequence == step { action = recorded.action }
            case .gap(let gap):
                stepCount = gap.lastSequence
            case .header, .end, .call, .effectEnd, .note:
                break
            }
            return true
        }
        return ReplayDisagreement(
            step: step, actionName: name, action: action, difference: difference, actionCount: actionCount,
            stepCount: stepCount, first: first.name, second: second.name)
    }

    /// One side's replayed states, where its host stopped when it did, and where its states hold dates, durations
    /// and dictionaries written as keyed pairs (none known from a host that stopped).
    private struct Replayed {
        var states: [ReplayHostClient.ReplayedState]
        var stop: ReplayHostClient.Stop?
        var typeNotes = EncodedTypeNotes()
    }

    private func replayed(
        _ exchange: ReplayHostClient.Exchange, session: SessionInput, stopsDisagree: Bool
    ) throws(CLIError) -> Replayed {
        switch exchange {
        case .answered(let answer):
            if let failure = answer.result.failure { throw CLIError(.input, failure, file: session.displayName) }
            var notes = EncodedTypeNotes()
            if let json = answer.result.typeNotes {
                do {
                    notes = try EncodedTypeNotes(jsonMembers: json.objectValue ?? [:])
                } catch {
                    throw CLIError(.host, "the replay host's 'typeNotes' member '\(error.member)' is not an array of paths")
                }
            }
            return Replayed(states: answer.states, stop: nil, typeNotes: notes)
        case .stopped(let stop):
            guard stopsDisagree else { throw stop.error }
            return Replayed(states: stop.partial.states, stop: stop)
        }
    }

    /// The report of checking `session` on `side`, every divergence found, so that the effect runs after a state's
    /// divergence from the recording are compared too.
    private func report(of session: SessionInput, _ side: Side) throws(CLIError) -> ReplayReport {
        try side.client.check(session, ReplayHostClient.Checking(findAll: true, ignoring: ignoring, identity: identity), progressOn: nil).report
    }

    /// `work` done for the first side on another thread and for the second on this one.
    private func both<Value: Sendable>(
        _ work: @escaping @Sendable (Side) throws(CLIError) -> Value
    ) throws(CLIError) -> (Value, Value) {
        let firstResult = Locked<Result<Value, CLIError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let firstSide = first
        Thread {
            let result = Result { () throws(CLIError) -> Value in try work(firstSide) }
            firstResult.withLock { $0 = result }
            done.signal()
        }.start()
        let secondResult = Result { () throws(CLIError) -> Value in try work(second) }
        done.wait()
        return (try firstResult.withLock { $0! }.get(), try secondResult.get())
    }
}
