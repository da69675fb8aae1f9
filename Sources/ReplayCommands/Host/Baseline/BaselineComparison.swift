import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// A session replayed through the baseline's host and the current one, compared with each other
/// (``ReplayPair``): what `diff --baseline` prints and what `check --baseline` gives each session.
struct BaselineComparison {
    /// The baseline the session was compared with.
    var baseline: BaselineHost
    /// What replayed it on the baseline's side.
    var baselineHost: HostIdentity
    /// What the two replays came to.
    var comparison: ReplayPair.Comparison

    /// The side names the replays carry in messages: `-` the baseline, `+` the current code.
    static func pair(
        baseline: BaselineHost, current: HostCommand, timeout: Double, ignoring: [JSONPathPattern], identity: [IdentityKey]
    ) -> ReplayPair {
        ReplayPair(
            first: ReplayPair.Side(
                name: "baseline \(baseline.shortCommit)", client: ReplayHostClient(host: baseline.host, timeout: timeout)),
            second: ReplayPair.Side(name: "current", client: ReplayHostClient(host: current, timeout: timeout)),
            ignoring: ignoring, identity: identity)
    }

    /// `same` or `changed`.
    var verdict: String { comparison.disagreement == nil ? "same" : "changed" }

    /// `same` exits 0, `changed` 1.
    var exitStatus: ExitStatus { comparison.disagreement == nil ? .ok : .different }

    /// The verdict as a person reads it: where the two versions first disagree and how, or that they agree.
    func explanationLines(source: String) -> [RenderedLine] {
        guard let disagreement = comparison.disagreement else {
            let effects = comparison.effectRuns == 0 ? "" : ", and its \(comparison.effectRuns) effect run\(comparison.effectRuns == 1 ? "" : "s") alike"
            return [
                RenderedLine(
                    .text,
                    "\(source): same: the current code replays all \(comparison.actionCount) steps as the baseline \(baseline.title) does\(effects)")
            ]
        }
        return [
            disagreement.headline(source: source, verdict: "changed"),
            RenderedLine(
                .text,
                "  the current code and the baseline \(baseline.title) disagree here, whatever the recording says"),
        ] + disagreement.detailLines
    }

    /// `changed at step 3 addTodo, todos[0].title`, or `same, 40 steps`.
    var oneLine: String {
        guard let disagreement = comparison.disagreement else { return "\(comparison.actionCount) steps as the baseline" }
        return disagreement.oneLine
    }

    /// The baseline as data: the revision as given, its commit and subject, and what replayed it.
    var baselineJSON: JSONValue {
        .object([
            "revision": .string(baseline.revision), "commit": .string(baseline.commit), "subject": .string(baseline.subject),
            "host": baselineHost.jsonValue,
        ])
    }

    /// The comparison as data: the verdict, the baseline, the steps and effect runs compared, and the difference
    /// (`null` when the versions agree).
    var jsonValue: JSONValue {
        .object([
            "verdict": .string(verdict), "baseline": baselineJSON, "actions": .integer(Int64(comparison.actionCount)),
            "effectRuns": .integer(Int64(comparison.effectRuns)),
            "difference": comparison.disagreement?.jsonValue ?? .null,
        ])
    }
}
