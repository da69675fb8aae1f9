import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// What `minimize` wrote: the smaller session, what it still reproduces, what it was checked against, and how the
/// search went.
struct MinimizeResult {
    /// The baseline every kept candidate was checked against, and what replayed it.
    struct CheckedBaseline {
        /// The baseline.
        var host: BaselineHost
        /// Its host, as built.
        var identity: HostIdentity
    }

    /// How the original session is named.
    var session: String
    /// Where the smaller one was written.
    var output: String
    /// The search's outcome.
    var outcome: SessionMinimizer.Outcome
    /// The search's bound, in seconds (`--timeout`).
    var timeBound: Int
    /// What replayed the candidates with the current code.
    var host: HostIdentity
    /// The baseline; `nil` with `--without-baseline`.
    var baseline: CheckedBaseline?

    /// The actions kept.
    var kept: Int { outcome.session.actions.count }
}

extension MinimizeResult: CommandOutput {
    var jsonValue: JSONValue {
        .object([
            "session": .string(session), "output": .string(output),
            "actions": .object(["before": .integer(Int64(outcome.originalActions)), "after": .integer(Int64(kept))]),
            "kept": keptJSON, "reproducedStep": .integer(Int64(outcome.reproducedStep)),
            "candidates": .integer(Int64(outcome.candidates)),
            "finished": .bool(outcome.finished), "timeBound": .integer(Int64(timeBound)),
            "checkedAgainstBaseline": .bool(baseline != nil),
            "baseline": baseline.map {
                .object([
                    "revision": .string($0.host.revision), "commit": .string($0.host.commit), "subject": .string($0.host.subject),
                    "host": $0.identity.jsonValue,
                ])
            } ?? .null,
            "host": host.jsonValue,
        ])
    }

    func writeText(to terminal: Terminal) {
        terminal.out(
            "minimized \(session): \(outcome.originalActions) -> \(kept) action\(kept == 1 ? "" : "s") "
                + "(\(outcome.candidates) candidates replayed in \(String(format: "%.1f", outcome.seconds)) s)")
        if let baseline {
            terminal.out("checked against baseline \(baseline.host.title)")
        } else {
            terminal.out(
                "not checked against a correct version (--without-baseline): its states are the current code's, so it may fail through a fixed version too")
        }
        terminal.out(keptText)
        if !outcome.finished {
            terminal.out("stopped at the time bound (\(timeBound) s, --timeout): this is the smallest session found so far, not the smallest there is")
        }
        terminal.out(host.summary)
        if let baseline { terminal.out("baseline " + baseline.identity.summary) }
        terminal.out("wrote \(output): " + writtenText)
    }

    /// What `diff` does with the written session.
    private var writtenText: String {
        let step = outcome.reproducedStep
        guard let baseline else { return "replay-cli diff \(output) reproduces it at step \(step)" }
        let current: String
        if case .crash = outcome.target {
            current = "crashes the current host at step \(step)"
        } else {
            current = "diverges at step \(step) through the current code"
        }
        return "replay-cli diff \(output) \(current) and matches through the baseline \(baseline.host.shortCommit)"
    }

    /// The rule every kept candidate met, in words.
    private var keptText: String {
        switch outcome.target {
        case .divergence(let step, let name, let anchors):
            let places = anchors.map { "\($0.path)" }.joined(separator: ", ")
            return "kept: the same change at \(places) by \(name) (step \(step) of the original)"
        case .crash(let step, let name, _):
            return "kept: the host crashes on \(name) (step \(step) of the original)"
        case .effectDivergence(let divergence):
            return "kept: effect \"\(divergence.effect)\" of \(divergence.causeName) diverging the same way, \(divergence.kindName) (step \(divergence.step) of the original)"
        }
    }

    /// The same rule as data.
    private var keptJSON: JSONValue {
        switch outcome.target {
        case .divergence(let step, let name, let anchors):
            .object([
                "kind": .string("divergence"), "originalStep": .integer(Int64(step)), "action": .string(name),
                "paths": .array(anchors.map { .string("\($0.path)") }),
            ])
        case .crash(let step, let name, let message):
            .object([
                "kind": .string("crash"), "originalStep": .integer(Int64(step)), "action": .string(name),
                "message": .string(message),
            ])
        case .effectDivergence(let divergence):
            .object([
                "kind": .string("effectDivergence"), "originalStep": .integer(Int64(divergence.step)),
                "action": .string(divergence.causeName), "effect": .string(divergence.effect),
                "effectDivergence": .string(divergence.kindName),
            ])
        }
    }
}

extension EffectDivergence {
    /// The kind's name, as the report's JSON writes it (`actionDiffers`, `callNotMade` …).
    fileprivate var kindName: String { jsonValue["kind"]?.stringValue ?? "" }
}
