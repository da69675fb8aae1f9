import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// What `check` found: every session's outcome, in the order checked, and the host that replayed them.
struct CheckResult {
    /// The sessions' outcomes.
    var sessions: [SessionCheck]
    /// What replayed them.
    var host: HostIdentity
    /// The baselines they were compared with (`--baseline`), in the order first used.
    var baselines: [(host: BaselineHost, identity: HostIdentity)] = []

    /// How many sessions got each verdict.
    var counts: [String: Int] { Dictionary(grouping: sessions, by: \.verdict).mapValues(\.count) }

    /// The counts line, such as `3 sessions: 1 diverged, 2 match`.
    var countsLine: String { Self.countsLine(counts) }

    /// The counts line for sessions that got each verdict so many times.
    static func countsLine(_ counts: [String: Int]) -> String {
        let total = counts.values.reduce(0, +)
        guard total > 0 else { return "0 sessions" }
        return "\(total) session\(total == 1 ? "" : "s"): "
            + counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
    }

    /// The worst session's status: trouble over differences over ok.
    var status: ExitStatus { sessions.map(\.status).max() ?? .ok }
}

extension CheckResult: CommandOutput {
    var jsonValue: JSONValue {
        .object([
            "sessions": .array(sessions.map(\.jsonValue)), "summary": .object(counts.mapValues { .integer(Int64($0)) }),
            "host": host.jsonValue,
            "baselines": .array(baselines.map {
                .object([
                    "revision": .string($0.host.revision), "commit": .string($0.host.commit), "subject": .string($0.host.subject),
                    "host": $0.identity.jsonValue,
                ])
            }),
        ])
    }

    /// One line per session, then each failure's explanation and artifacts, the counts, and the host.
    func writeText(to terminal: Terminal) {
        for session in sessions {
            let mark = session.status == .ok ? terminal.green("✓") : terminal.red("✗")
            terminal.out(mark, " \(session.line)")
        }
        for session in sessions where session.status != .ok {
            if !session.isExplainedByItsLine { terminal.out([RenderedLine(.text, "")] + session.explanation) }
            let kept = (session.artifacts?.paths ?? []).map { "kept \($0)" } + (session.artifacts?.problems ?? [])
            if !kept.isEmpty { terminal.out(kept.joined(separator: "\n")) }
        }
        terminal.out("\n" + countsLine)
        terminal.out(host.summary)
        for baseline in baselines { terminal.out("baseline \(baseline.host.title): \(baseline.identity.summary)") }
    }
}
