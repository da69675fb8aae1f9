import StoreKitCore

/// Why a session has no state to show for a step asked for with `--step`: a gap covers it, or it is past the last.
enum MissingStep {
    /// A gap covers the step: the session holds no state for it (when the gap keeps its actions, replay runs
    /// through them to the step).
    case inGap(GapEvent)
    /// The step is past the session's last step, `stepCount`.
    case pastTheEnd(stepCount: Int)

    /// The error `replay` and `show` give for `step` of `session`.
    func error(step: Int, in session: SessionInput) -> CLIError {
        switch self {
        case .inGap(let gap):
            CLIError(
                .input,
                "\(session.displayName) holds no state for step \(step): a gap covers steps \(gap.firstSequence)-\(gap.lastSequence) (\(gap.reason.rawValue)); the last step before it is \(gap.firstSequence - 1)"
                    + (gap.keepsActions
                        ? ". The gap keeps its actions without their states: 'replay-cli replay --step \(step)' replays them to that step"
                        : ""))
        case .pastTheEnd(let stepCount):
            CLIError(.input, "\(session.displayName) has \(stepCount) steps; there is no step \(step)")
        }
    }
}
