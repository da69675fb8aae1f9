import StoreKitCore

/// The rules effect lines (and notes) keep between them, in one place for the reader and for replayd: effect lines
/// only from format 2 and notes only from format 3, a run's cause already covered, a run's calls numbered 0, 1, 2 … without a skip (unless a gap came
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

    /// What the rules read of a `call` or `effectEnd` line: its run, and its call's index or the calls it counts.
    package enum RunLine: Sendable, Equatable {
        /// A `call` of run `cause`, `effect`, at `index`.
        case call(cause: Int, effect: String, index: Int)
        /// The `effectEnd` of run `cause`, `effect`, counting `calls` calls.
        case end(cause: Int, effect: String, calls: Int)

        /// What `event` says, when it is a `call` or an `effectEnd`.
        package init?(_ event: SessionEvent) {
            switch event {
            case .call(let call): self = .call(cause: call.cause, effect: call.effect, index: call.index)
            case .effectEnd(let end): self = .end(cause: end.cause, effect: end.effect, calls: end.calls)
            case .header, .action, .gap, .end, .note: return nil
            }
        }
    }

    /// Rules for a session of `formatVersion`.
    package init(formatVersion: Int) {
        self.formatVersion = formatVersion
    }

    /// Checks `line`, a `call` or `effectEnd` offered for storing, as ``admitIfValid(_:covered:)-(SessionEvent,_)``
    /// does.
    package mutating func admitIfValid(_ line: RunLine, covered: Int) -> EffectLineProblem? {
        if let problem = problem(with: line, covered: covered) { return problem }
        take(line)
        return nil
    }

    /// Checks `event`, the next line of a file, given that the lines before it cover sequence numbers up to
    /// `covered`. A line it refuses still counts as the file's (a reader going on after it, as `verify` does, assumes
    /// as little as it can): a call moves its run's next index past it, an `effectEnd` closes its run.
    /// - Returns: What is wrong with it, or `nil`.
    package mutating func admit(_ event: SessionEvent, covered: Int) -> EffectLineProblem? {
        let problem = problem(with: event, covered: covered)
        take(event)
        return problem
    }

    /// Checks `event`, a line offered for storing, and takes it only when nothing is wrong with it: a refused line is
    /// not stored, so the runs stay as the stored lines left them (replayd's rule).
    /// - Returns: What is wrong with it, or `nil`.
    package mutating func admitIfValid(_ event: SessionEvent, covered: Int) -> EffectLineProblem? {
        if let problem = problem(with: event, covered: covered) { return problem }
        take(event)
        return nil
    }

    /// What is wrong with an action line that names the effect that sent it (`namesEffect`), or came from the app
    /// (`isFromApp`); an action line changes no run.
    package func problem(actionNamingEffect namesEffect: Bool, isFromApp: Bool) -> EffectLineProblem? {
        guard namesEffect else { return nil }
        if formatVersion < 2 { return .effectLineInFormatOne(field: "effect", found: "the effect that sent the action") }
        if isFromApp { return .effectOnAppAction }
        return nil
    }

    /// Notes a gap line: the lines of every open run since may skip indexes (the recorder lost them with the gap's
    /// actions).
    package mutating func noteGap() {
        for key in runs.keys { runs[key]?.gapSince = true }
    }

    private func problem(with event: SessionEvent, covered: Int) -> EffectLineProblem? {
        switch event {
        case .header, .end, .gap:
            return nil
        case .note:
            return formatVersion < 3 ? .noteBeforeFormatThree(formatVersion: formatVersion) : nil
        case .action(let action):
            if case .app = action.origin {
                return problem(actionNamingEffect: action.effect != nil, isFromApp: true)
            }
            return problem(actionNamingEffect: action.effect != nil, isFromApp: false)
        case .call, .effectEnd:
            return RunLine(event).flatMap { problem(with: $0, covered: covered) }
        }
    }

    private func problem(with line: RunLine, covered: Int) -> EffectLineProblem? {
        switch line {
        case .call(let cause, let effect, let index):
            if formatVersion < 2 { return .effectLineInFormatOne(field: "kind", found: "'call'") }
            if cause > covered { return .causeNotYetCovered(cause: cause, covered: covered) }
            let run = runs[RunKey(cause: cause, effect: effect)] ?? Run()
            if index != run.calls && !(run.gapSince && index > run.calls) {
                return .callIndexOutOfOrder(index: index, expected: run.calls)
            }
            return nil
        case .end(let cause, let effect, let calls):
            if formatVersion < 2 { return .effectLineInFormatOne(field: "kind", found: "'effectEnd'") }
            if cause > covered { return .causeNotYetCovered(cause: cause, covered: covered) }
            let run = runs[RunKey(cause: cause, effect: effect)] ?? Run()
            if calls != run.calls && !run.gapSince {
                return .effectEndCountsOtherCalls(counted: calls, lines: run.calls)
            }
            return nil
        }
    }

    /// Moves the runs past `event`.
    private mutating func take(_ event: SessionEvent) {
        switch event {
        case .header, .end, .action, .note:
            break
        case .gap:
            noteGap()
        case .call, .effectEnd:
            if let line = RunLine(event) { take(line) }
        }
    }

    /// Moves the runs past `line`.
    private mutating func take(_ line: RunLine) {
        switch line {
        case .call(let cause, let effect, let index):
            let key = RunKey(cause: cause, effect: effect)
            var run = runs[key] ?? Run()
            run.calls = max(run.calls, index + 1)
            run.gapSince = false
            runs[key] = run
        case .end(let cause, let effect, _):
            runs.removeValue(forKey: RunKey(cause: cause, effect: effect))
        }
    }
}

/// What is wrong with an effect line, given the lines before it.
public enum EffectLineProblem: Sendable, Hashable, CustomStringConvertible {
    /// A line or field of format 2 in a format 1 session: the field's path and what it holds.
    case effectLineInFormatOne(field: String, found: String)
    /// An action line with `origin: app` names an effect.
    case effectOnAppAction
    /// A run's cause is above the sequence numbers the lines before it cover.
    case causeNotYetCovered(cause: Int, covered: Int)
    /// A call's index is not the next of its run.
    case callIndexOutOfOrder(index: Int, expected: Int)
    /// An `effectEnd` counts other calls than its run has lines for.
    case effectEndCountsOtherCalls(counted: Int, lines: Int)
    /// A `note` line in a session of a format before 3, which has none.
    case noteBeforeFormatThree(formatVersion: Int)

    /// What is wrong, in a sentence that names the field, as a decoding error does.
    public var description: String {
        switch self {
        case .effectLineInFormatOne(let field, let found):
            Self.field(field, "is \(found), which needs format 2; this session is format 1")
        case .effectOnAppAction:
            Self.field("effect", "names an effect on an action with origin 'app'; only an action an effect sent names one")
        case .causeNotYetCovered(let cause, let covered):
            Self.field(
                "cause", "is \(cause), not an action yet: the lines before it cover sequence numbers up to \(covered)")
        case .callIndexOutOfOrder(let index, let expected):
            Self.field("index", "is \(index), out of order: the run's next call is \(expected)")
        case .effectEndCountsOtherCalls(let counted, let lines):
            Self.field("calls", "is \(counted), but the session holds \(lines) calls for the run")
        case .noteBeforeFormatThree(let formatVersion):
            Self.field("kind", "is 'note', which needs format 3; this session is format \(formatVersion)")
        }
    }

    private static func field(_ path: String, _ message: String) -> String {
        SessionEventDecodingError(path: path, message: message).description
    }
}
