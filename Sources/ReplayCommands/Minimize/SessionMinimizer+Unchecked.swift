import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// `minimize --without-baseline`: candidates judged by the current code alone, their states the current reducers'.
///
/// A candidate's states are the current reducers' (a `states` request), which matched the recording before the
/// diverging step in the full session. At the diverging step, the last of every candidate, the state is the replayed
/// one with the diverging places set back to their recorded values; a candidate is kept only when the current
/// reducers take those places from the same values before the step to the same replayed values as in the full
/// session. For a crash, a candidate is kept when the host crashes on its last action and that action has the
/// crashing one's name. For an effect divergence, when its check diverges first in the same effect, started by the
/// same original action, with the same kind of difference.
extension SessionMinimizer {
    /// Replays the whole session through the current host: a crash is the target; else the first divergence of a
    /// check is.
    func uncheckedTarget(of session: Session, input: SessionInput) throws(CLIError) -> Target {
        switch try replayer.states(of: input, timeout: hostTimeout) {
        case .stopped(let stop):
            guard let last = stop.lastStep else { throw stop.error }
            return .crash(step: last.step, actionName: last.name, message: stop.error.message)
        case .answered(let answer):
            if let failure = answer.result.failure { throw CLIError(.input, failure, file: input.displayName) }
        }
        let report = try replayer.check(input, ignoring: ignoring, timeout: hostTimeout).report
        if case .effectDiverged(let divergence) = report.verdict { return .effectDivergence(divergence) }
        guard case .diverged(let divergence) = report.verdict else {
            throw CLIError(
                .input, "nothing to minimize: the session replays as '\(report.verdict.name)' (minimize needs one that diverges, whose effect diverges, or that crashes the host)",
                file: input.displayName)
        }
        return .divergence(step: divergence.step, actionName: divergence.actionName, anchors: Self.anchors(of: divergence, in: session))
    }

    /// `candidate` (written at `file`) with the states to write, and the step it reproduces `target` at, when its
    /// replay through the current host reproduces it; `nil` when it does not.
    func uncheckedReproduction(
        _ candidate: Session, in file: SessionInput, of target: Target, keptSteps: [Int], recordedLast: JSONValue?,
        timeout: Double
    ) throws(CLIError) -> (session: Session, step: Int)? {
        let exchange = try replayer.states(of: file, timeout: timeout)
        guard let written = Self.written(candidate, target: target, exchange: exchange, recordedLast: recordedLast) else { return nil }
        guard case .effectDivergence(let wanted) = target else { return (written, written.actions.count) }
        // The states are the current reducers': the check's first finding is the effects'.
        try Self.write(written, to: file)
        let report = try replayer.check(file, ignoring: ignoring, timeout: timeout).report
        guard case .effectDiverged(let found) = report.verdict, Self.sameEffectDivergence(found, as: wanted, keptSteps: keptSteps)
        else { return nil }
        return (written, found.step)
    }

    /// `candidate` with the states to write when its replay reproduces `target`; `nil` when it does not.
    static func written(
        _ candidate: Session, target: Target, exchange: ReplayHostClient.Exchange, recordedLast: JSONValue?
    ) -> Session? {
        let actions = candidate.actions
        guard let last = actions.last else { return nil }
        var states: [JSONValue]
        switch (target, exchange) {
        case (.crash(_, let name, _), .stopped(let stop)):
            guard stop.lastStep?.step == last.sequence, last.name == name,
                stop.partial.states.map(\.step) == Array(1..<last.sequence)
            else { return nil }
            // The host never gets past the last step, so its recorded state is never compared: the full session's.
            states = stop.partial.states.map(\.state) + [recordedLast ?? last.state]
        case (.divergence(_, let name, let anchors), .answered(let answer)):
            guard last.name == name, answer.states.map(\.step) == Array(1...last.sequence) else { return nil }
            states = answer.states.map(\.state)
            let before = states.count > 1 ? states[states.count - 2] : candidate.header.initialState
            var lastState = states[states.count - 1]
            for anchor in anchors {
                guard before.value(at: anchor.path) == anchor.before, lastState.value(at: anchor.path) == anchor.replayed
                else { return nil }
            }
            for anchor in anchors {
                guard let recorded = anchor.recorded, let set = lastState.replacing(at: anchor.path, with: recorded) else {
                    return nil
                }
                lastState = set
            }
            states[states.count - 1] = lastState
        case (.effectDivergence, .answered(let answer)):
            // The effect's finding is checked on the written session; its states are the current reducers'.
            guard answer.states.map(\.step) == Array(1...last.sequence) else { return nil }
            states = answer.states.map(\.state)
        default:
            return nil
        }
        return session(candidate, withStates: states)
    }
}
