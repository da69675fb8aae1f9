import StoreKitCore

/// The rules effect lines keep between them, in one place for the reader and for replayd: effect lines only in
/// format 2, a run's cause already covered, a run's calls numbered 0, 1, 2 … without a skip (unless a gap came
/// since the run's last line), and a run's `effectEnd` counting the calls it had.
package struct EffectLineOrder: Sendable {
    /// Where a run is: how many calls it has had, and whether a gap came since its last line.
    private struct Run: Sendable {
        var calls = 0
        var gapSince = false
    }

    /// The session's format version.
    private let formatVersion: Int
    /// The runs that have a line and no `effectEnd` yet.
    private var runs: [RunKey: Run] = [:]

    /// A run: the action that started it and the effect's name.
    private struct RunKey: Hashable, Sendable {
        var cause: Int
        var effect: String
    }

    /// Rules for a session of `formatVersion`.
    package init(formatVersion: Int) {
        self.formatVersion = formatVersion
    }

    /// Checks `event`, the next line, given that the lines before it cover sequence numbers up to `covered`.
    /// - Returns: What is wrong with it, or `nil`.
    package mutating func admit(_ event: SessionEvent, covered: Int) -> EffectLineProblem? {
        switch event {
        case .header, .end:
            return nil
        case .gap:
            for key in runs.keys { runs[key]?.gapSince = true }
            return nil
        case .action(let action):
            guard action.effect != nil else { return nil }
            if formatVersion < 2 { return .effectLineInFormatOne(kind: "an action's 'effect'") }
            if case .app = action.origin { return .effectOnAppAction }
            return nil
        case .call(let call):
            if formatVersion < 2 { return .effectLineInFormatOne(kind: "a 'call' line") }
            if call.cause > covered { return .causeNotYetCovered(cause: call.cause, covered: covered) }
            let key = RunKey(cause: call.cause, effect: call.effect)
            var run = runs[key] ?? Run()
            defer { runs[key] = run }
            let expected = run.calls
            if call.index != expected && !(run.gapSince && call.index > expected) {
                run.calls = max(run.calls, call.index + 1)
                return .callIndexOutOfOrder(index: call.index, expected: expected)
            }
            run.calls = call.index + 1
            run.gapSince = false
            return nil
        case .effectEnd(let end):
            if formatVersion < 2 { return .effectLineInFormatOne(kind: "an 'effectEnd' line") }
            if end.cause > covered { return .causeNotYetCovered(cause: end.cause, covered: covered) }
            let run = runs.removeValue(forKey: RunKey(cause: end.cause, effect: end.effect)) ?? Run()
            if end.calls != run.calls && !run.gapSince {
                return .effectEndCountsOtherCalls(counted: end.calls, lines: run.calls)
            }
            return nil
        }
    }
}

/// What is wrong with an effect line, given the lines before it.
public enum EffectLineProblem: Sendable, Hashable, CustomStringConvertible {
    /// An effect line (or field) in a format 1 session.
    case effectLineInFormatOne(kind: String)
    /// An action line with `origin: app` names an effect.
    case effectOnAppAction
    /// A run's cause is above the sequence numbers the lines before it cover.
    case causeNotYetCovered(cause: Int, covered: Int)
    /// A call's index is not the next of its run.
    case callIndexOutOfOrder(index: Int, expected: Int)
    /// An `effectEnd` counts other calls than its run has lines for.
    case effectEndCountsOtherCalls(counted: Int, lines: Int)

    /// What is wrong, in a sentence.
    public var description: String {
        switch self {
        case .effectLineInFormatOne(let kind):
            "\(kind) in a format 1 session; effect lines need format 2"
        case .effectOnAppAction:
            "an action with origin 'app' names an effect; only an action an effect sent does"
        case .causeNotYetCovered(let cause, let covered):
            "cause \(cause) is not an action yet: the lines before it cover sequence numbers up to \(covered)"
        case .callIndexOutOfOrder(let index, let expected):
            "call index \(index) is out of order: the run's next call is \(expected)"
        case .effectEndCountsOtherCalls(let counted, let lines):
            "the run's end counts \(counted) calls, but the session holds \(lines) for it"
        }
    }
}
