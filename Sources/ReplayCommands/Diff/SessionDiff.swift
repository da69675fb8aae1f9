import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// What `diff` found replaying one session through the current reducers: its drift and replay report.
struct SessionDiff {
    /// How the session is named.
    var session: String
    /// What the host found.
    var outcome: ReplayHostClient.Outcome
    /// What replayed it.
    var host: HostIdentity
}

extension SessionDiff: CommandOutput {
    var jsonValue: JSONValue {
        let before = outcome.report.divergences.first?.precedingActions ?? []
        return .object([
            "session": .string(session), "drift": outcome.drift.jsonValue, "report": outcome.report.jsonValue,
            "host": host.jsonValue, "context": .array(before.map(\.jsonValue)),
        ])
    }

    func writeText(to terminal: Terminal) {
        if !outcome.drift.isEmpty { terminal.out(terminal.yellow(outcome.drift.explanation), "\n") }
        terminal.out(outcome.report.explanationLines(source: session))
        terminal.out(host.summary)
    }
}

/// What `diff --determinism` found when two replays of a session disagree.
struct NondeterministicReplay {
    /// How the session is named.
    var session: String
    /// Where the replays first disagree.
    var finding: HostDeterminism.Finding
    /// What replayed it.
    var host: HostIdentity
}

extension NondeterministicReplay: CommandOutput {
    var jsonValue: JSONValue {
        .object([
            "session": .string(session), "verdict": .string("nondeterministic"), "nondeterministic": finding.jsonValue,
            "host": host.jsonValue,
        ])
    }

    func writeText(to terminal: Terminal) {
        terminal.out(HostDeterminism.explanationLines(of: finding, source: session))
        terminal.out(host.summary)
    }
}
