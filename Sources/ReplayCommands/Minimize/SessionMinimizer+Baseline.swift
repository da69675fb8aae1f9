import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// `minimize --baseline REV`: candidates written with the baseline's states and kept only when the current code
/// differs from them as it does on the full session, and the baseline replays them as a match.
///
/// The target is found on the full session written with the baseline's states: the current host crashing on an
/// action (its states before it the baseline's), else the first divergence of its check (a state's: the same places
/// by the same action; or an effect run's: the same run, the same way).
extension SessionMinimizer {
    /// How the current code differs from `baseline` on the full `session`.
    /// - Throws: ``CLIError`` when the baseline does not replay the session, or does not replay it written with its
    ///   own states as a match; and "nothing to minimize" when the current code replays it as the baseline does.
    func target(of session: Session, input: SessionInput, against baseline: Baseline, scratch: URL) throws(CLIError) -> Target {
        let cannot = "the baseline \(baseline.title) does not replay the session, so there is no correct version to check against"
        let answer: ReplayHostClient.Answer
        switch try baseline.replayer.states(of: input, timeout: hostTimeout) {
        case .stopped(let stop):
            throw CLIError(.host, "\(cannot): \(stop.error.message)", file: input.displayName)
        case .answered(let answered):
            if let failure = answered.result.failure { throw CLIError(.input, "\(cannot): \(failure)", file: input.displayName) }
            answer = answered
        }
        guard answer.states.map(\.step) == session.actions.map(\.sequence),
            let written = Self.session(session, withStates: answer.states.map(\.state))
        else {
            throw CLIError(
                .host, "\(cannot): its host sent states for \(answer.states.count) steps, and the session has \(session.actions.count) actions",
                file: input.displayName)
        }
        let file = SessionInput(file: scratch.appendingPathComponent("baseline-states.jsonl").path, displayName: input.displayName)
        try Self.write(written, to: file)
        let own = try baseline.replayer.check(file, ignoring: ignoring, timeout: hostTimeout)
        var crash: Target?
        if case .stopped(let stop) = try replayer.states(of: file, timeout: hostTimeout) {
            guard let last = stop.lastStep else { throw stop.error }
            // Up to the crash the current code agrees with the baseline: the crash is the first difference.
            if agrees(stop.partial.states, with: written.actions.prefix { $0.sequence < last.step }) {
                crash = .crash(step: last.step, actionName: last.name, message: stop.error.message)
            }
        }
        let report = try crash == nil ? replayer.check(file, ignoring: ignoring, timeout: hostTimeout).report : nil
        if let report, report.verdict == own.report.verdict {
            throw CLIError(
                .input, "nothing to minimize: the current code replays the session as the baseline \(baseline.title) does",
                file: input.displayName)
        }
        guard case .match = own.report.verdict, own.drift.isEmpty else {
            let found = own.drift.isEmpty ? "as '\(own.report.verdict.name)'" : "with schema drift"
            throw CLIError(
                .input,
                "the baseline \(baseline.title) replays the session, written with its own states, \(found), so no smaller session it matches can be written (an effect that does otherwise than recorded, or a nondeterministic reducer, does this: see diff --baseline and diff --determinism)",
                file: input.displayName)
        }
        if let crash { return crash }
        switch report?.verdict {
        case .diverged(let divergence):
            return .divergence(step: divergence.step, actionName: divergence.actionName, anchors: Self.anchors(of: divergence, in: written))
        case .effectDiverged(let divergence):
            return .effectDivergence(divergence)
        default:
            throw CLIError(
                .input,
                "nothing to minimize: written with the baseline \(baseline.title)'s states, the session replays through the current code as '\(report?.verdict.name ?? "")' (minimize needs one where the current code diverges from the baseline, or crashes)",
                file: input.displayName)
        }
    }

    /// `candidate` (written at `file`) with the baseline's states, and the step the current code reproduces `target`
    /// at, when it does and the baseline replays it as a match without drift; `nil` otherwise.
    func checkedReproduction(
        _ candidate: Session, in file: SessionInput, of target: Target, against baseline: Baseline, keptSteps: [Int], timeout: Double
    ) throws(CLIError) -> (session: Session, step: Int)? {
        guard case .answered(let answer) = try baseline.replayer.states(of: file, timeout: timeout), answer.result.failure == nil,
            answer.states.map(\.step) == candidate.actions.map(\.sequence),
            let written = Self.session(candidate, withStates: answer.states.map(\.state))
        else { return nil }
        try Self.write(written, to: file)
        guard let step = try currentStep(reproducing: target, in: written, at: file, keptSteps: keptSteps, timeout: timeout) else {
            return nil
        }
        let own = try baseline.replayer.check(file, ignoring: ignoring, timeout: timeout)
        guard case .match = own.report.verdict, own.drift.isEmpty else { return nil }
        return (written, step)
    }

    /// The step of `written` (at `file`) where the current code differs from its states as `target` says: a crash on
    /// its last action after agreeing up to it, a divergence at its last action in the same places, or the same
    /// effect run's divergence; `nil` when it does otherwise.
    private func currentStep(
        reproducing target: Target, in written: Session, at file: SessionInput, keptSteps: [Int], timeout: Double
    ) throws(CLIError) -> Int? {
        guard let last = written.actions.last?.sequence else { return nil }
        switch target {
        case .crash:
            guard case .stopped(let stop) = try replayer.states(of: file, timeout: timeout), stop.lastStep?.step == last,
                agrees(stop.partial.states, with: written.actions.dropLast())
            else { return nil }
            return last
        case .divergence(_, _, let anchors):
            guard case .diverged(let found) = try replayer.check(file, ignoring: ignoring, timeout: timeout).report.verdict,
                found.step == last, Set(Self.places(of: found)) == Set(anchors.map(\.path))
            else { return nil }
            return last
        case .effectDivergence(let wanted):
            guard case .effectDiverged(let found) = try replayer.check(file, ignoring: ignoring, timeout: timeout).report.verdict,
                Self.sameEffectDivergence(found, as: wanted, keptSteps: keptSteps)
            else { return nil }
            return found.step
        }
    }

    /// Whether `replayed` are the states of `actions`, step for step, the places `ignoring` names left out.
    private func agrees(_ replayed: [ReplayHostClient.ReplayedState], with actions: some Collection<ActionEvent>) -> Bool {
        replayed.count == actions.count
            && zip(replayed, actions).allSatisfy { state, action in
                let compared = ignoring.isEmpty ? state.state : ignoring.overlay(from: action.state, onto: state.state).value
                return state.step == action.sequence && compared == action.state
            }
    }
}
