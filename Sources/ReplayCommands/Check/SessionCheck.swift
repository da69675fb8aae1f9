import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// One session's outcome in `check`: its verdict and exit status, the explanation a person reads, what it rests on,
/// and what `--artifacts` kept for it.
struct SessionCheck {
    /// What the verdict rests on.
    enum Finding {
        /// The host checked the session: its drift and replay report.
        case replayed(ReplayHostClient.Outcome)
        /// Two replays of the session disagree (`--determinism`).
        case nondeterministic(HostDeterminism.Finding)
        /// The session was replayed through the baseline's code and the current code (`--baseline`).
        case comparedWithBaseline(BaselineComparison)
        /// The session could not be checked.
        case failed(CLIError)
    }

    /// The session file, as found under the paths given.
    var path: String
    /// The verdict's name: `match`, `diverged`, `drifted`, `nondeterministic`, `error` ...
    var verdict: String
    /// ``ExitStatus/ok`` when the session passed, ``ExitStatus/different`` when it failed, ``ExitStatus/trouble``
    /// when it could not be checked.
    var status: ExitStatus
    /// Why it failed, as a person reads it.
    var explanation: [RenderedLine]
    /// What the verdict rests on.
    var finding: Finding
    /// What `--artifacts` kept; `nil` without `--artifacts` or for a session that passed.
    var artifacts: CheckArtifacts.Kept?
}

extension SessionCheck {
    /// The outcome `finding` gives the session at `path`.
    init(path: String, finding: Finding) {
        switch finding {
        case .replayed(let outcome):
            let drift = outcome.drift.isEmpty ? [] : (outcome.drift.explanation + "\n").renderedLines(.text)
            self.init(
                path: path, verdict: outcome.drift.isEmpty ? outcome.report.verdict.name : "drifted", status: outcome.exitStatus,
                explanation: drift + outcome.report.explanationLines(source: path), finding: finding)
        case .nondeterministic(let found):
            self.init(
                path: path, verdict: "nondeterministic", status: .different, explanation: HostDeterminism.explanationLines(of: found, source: path),
                finding: finding)
        case .comparedWithBaseline(let comparison):
            self.init(
                path: path, verdict: comparison.verdict, status: comparison.exitStatus,
                explanation: comparison.explanationLines(source: path), finding: finding)
        case .failed(let error):
            self.init(path: path, verdict: "error", status: .trouble, explanation: [RenderedLine(.text, error.description)], finding: finding)
        }
    }

    /// The replay's report, when the host gave one.
    var report: ReplayReport? {
        guard case .replayed(let outcome) = finding else { return nil }
        return outcome.report
    }

    /// What of the session's effects the replay did not check, in one clause; `nil` when it checked them all or
    /// did not replay.
    var effectsNotChecked: String? { report?.effectsNotChecked }

    /// What a match or an incomplete replay did not cover, in clauses: the effects it did not check, and the end
    /// of a recording cut off before its `end` line (a crash, or a recording still running), whose last actions may
    /// be missing.
    private var notCovered: [String] {
        guard let report else { return [] }
        var clauses = report.effectsNotChecked.map { [$0] } ?? []
        if report.end == nil {
            clauses.append("no end line: the recording was cut off or is still going, later actions may be missing")
        }
        return clauses
    }

    /// The session's line in the text output: verdict, path, length, and where it failed; for an effect divergence
    /// the step, the effect and what it did otherwise; for a match, what it did not cover.
    var line: String {
        switch finding {
        case .replayed(let outcome):
            let report = outcome.report
            let isMatch = report.verdict == .match || { if case .incomplete = report.verdict { true } else { false } }()
            let compared =
                isMatch && report.effects.actionsCompared > 0
                ? ", \(report.effects.actionsEqual) of them effect actions rerun and equal" : ""
            var line = "\(report.verdict.name.rightPadded(11)) \(path) (\(report.actionCount) actions\(compared))"
            switch report.verdict {
            case .diverged(let divergence):
                line += ": step \(divergence.step) \(ActionText.of(divergence.action, named: divergence.actionName)), \(divergence.diff.changes.first.map { "\($0.path)" } ?? "")"
            case .effectDiverged(let divergence):
                line += ": \(divergence.summary)"
            case .match, .incomplete:
                for clause in notCovered { line += "; \(clause)" }
            case .undecodable, .unknownStore:
                break
            }
            if !outcome.drift.isEmpty { line += "; schema drift in \(outcome.drift.entries.count) kind(s) of value" }
            for ignored in report.ignored { line += "; ignored '\(ignored.pattern)' at \(ignored.steps) step\(ignored.steps == 1 ? "" : "s")" }
            return line
        case .nondeterministic(let found):
            return "nondeterministic \(path) (\(found.actionCount) actions): \(found.oneLine)"
        case .comparedWithBaseline(let comparison):
            let compared = comparison.comparison
            guard let disagreement = compared.disagreement else {
                return "\("same".rightPadded(11)) \(path) (\(compared.actionCount) actions, as the baseline \(comparison.baseline.shortCommit))"
            }
            return "\("changed".rightPadded(11)) \(path) (\(compared.actionCount) actions): \(disagreement.oneLine)"
        case .failed(let error):
            // Most errors name the session's file already (with the line where it went wrong).
            let description = error.description
            return "error       " + (description.hasPrefix(path + ":") ? description : "\(path): \(description)")
        }
    }

    /// Whether the session's line says all there is: an error, whose explanation is its description.
    var isExplainedByItsLine: Bool {
        if case .failed = finding { return true }
        return false
    }

    /// The session's entry in the `--json` document.
    var jsonValue: JSONValue {
        var fields: [String: JSONValue] = ["session": .string(path), "verdict": .string(verdict)]
        switch finding {
        case .replayed(let outcome):
            fields["drift"] = outcome.drift.jsonValue
            fields["report"] = outcome.report.jsonValue
        case .nondeterministic(let found):
            fields["nondeterministic"] = found.jsonValue
        case .comparedWithBaseline(let comparison):
            fields["baseline"] = comparison.jsonValue
        case .failed(let error):
            fields["error"] = .string(error.description)
        }
        if let artifacts {
            fields["artifacts"] = .array(artifacts.paths.map(JSONValue.string))
            fields["artifactProblems"] = .array(artifacts.problems.map(JSONValue.string))
        }
        return .object(fields)
    }

    /// The session as a row of the `--summary` table: the step, action and first path where it failed, when known;
    /// for an effect divergence the step, the effect and what it did otherwise; for a match, what it did not
    /// cover.
    var summaryRow: CheckSummary.Row {
        var row = CheckSummary.Row(
            session: path, verdict: verdict, passed: status == .ok, artifacts: artifacts?.paths ?? [],
            artifactProblems: artifacts?.problems ?? [])
        if case .comparedWithBaseline(let comparison) = finding, let disagreement = comparison.comparison.disagreement {
            (row.step, row.action, row.path) = (disagreement.step, disagreement.actionName, disagreement.place)
            return row
        }
        switch report?.verdict {
        case .diverged(let divergence)?:
            (row.step, row.action, row.path) = (divergence.step, divergence.actionName, divergence.diff.changes.first.map { "\($0.path)" })
        case .effectDiverged(let divergence)?:
            (row.step, row.action, row.path) = (divergence.step, "effect '\(divergence.effect)'", divergence.whatDiffers)
        case .match?, .incomplete?:
            row.path = notCovered.isEmpty ? nil : notCovered.joined(separator: "; ")
        case .undecodable(let undecodable)?:
            (row.step, row.action, row.path) = (undecodable.step, undecodable.actionName, "\(undecodable.part.rawValue) \(undecodable.path)")
        default:
            break
        }
        return row
    }
}
