import StoreKitCore
import StoreKitJSON

/// One commit `bisect` tested and what it came to.
struct BisectTest {
    /// What testing a commit came to.
    enum Verdict {
        /// It replays the session as the good revision does.
        case same
        /// Its replay differs from the good revision's (a state, an effect run, a host that stops), first here.
        case changed(ReplayDisagreement)
        /// Its build step fails, so it is skipped.
        case doesNotBuild(CLIError)
        /// Its host cannot replay the session at all (it fails to start, hangs, refuses the session), so it is skipped.
        case cannotReplay(CLIError)

        /// The verdict as the search counts it.
        var outcome: BisectSearch.Outcome {
            switch self {
            case .same: .same
            case .changed: .changed
            case .doesNotBuild, .cannotReplay: .skipped
            }
        }

        /// `same`, `changed at step 68 (timerTick(id: 2))` (with the effect, or the host that stopped), `does not build,
        /// skipped`, or `cannot replay the session, skipped`.
        var description: String {
            switch self {
            case .same: "same"
            case .changed(let disagreement):
                switch disagreement.difference {
                case .state:
                    "changed at step \(disagreement.step) (\(disagreement.actionText))"
                case .effect(let effect):
                    "changed at step \(disagreement.step): effect \"\(effect.effect.escapingControls())\" of step \(effect.cause)"
                case .stop(let first, _):
                    "changed at step \(disagreement.step) (\(disagreement.actionText)): the host of \(first == nil ? disagreement.second : disagreement.first) stopped"
                }
            case .doesNotBuild: "does not build, skipped"
            case .cannotReplay: "cannot replay the session, skipped"
            }
        }

        /// Why it was skipped (`does not build`, `cannot replay`); `nil` when it was not.
        var skipReason: String? {
            switch self {
            case .same, .changed: nil
            case .doesNotBuild: "does not build"
            case .cannotReplay: "cannot replay"
            }
        }

        /// The error that made it skipped; `nil` when it was not.
        var skipError: CLIError? {
            switch self {
            case .same, .changed: nil
            case .doesNotBuild(let error), .cannotReplay(let error): error
            }
        }
    }

    /// The commit's place in the range, oldest first.
    var index: Int
    /// The commit.
    var commit: BisectCommit
    /// What it came to.
    var verdict: Verdict
    /// The comparison with the good revision's replay, when both replayed.
    var comparison: ReplayPair.Comparison?

    /// The commit and its verdict as data: `verdict` (`same`, `changed`, `skipped`), and `reason` and `error` for a
    /// skipped one, `difference` for a changed one.
    var jsonValue: JSONValue {
        var members = commit.jsonMembers
        members["verdict"] = .string(verdict.outcome.rawValue)
        if let reason = verdict.skipReason { members["reason"] = .string(reason) }
        if let error = verdict.skipError { members["error"] = .string(error.description) }
        if case .changed(let disagreement) = verdict { members["difference"] = disagreement.jsonValue }
        return .object(members)
    }
}
