import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// Reduces a session that diverges, whose rerun effect diverges, or whose host crashes, to the fewest actions that
/// still do the same, by delta debugging over the app's own actions; each candidate is replayed through the current
/// host (`docs/replay-cli.md`, "minimize").
///
/// A subset of actions has no recorded states: the code that recorded them is gone. A candidate's states are
/// therefore the current reducers' (a `states` request), which matched the recording before the diverging step in
/// the full session. At the diverging step, the last of every candidate, the state is the replayed one with the
/// diverging places set back to their recorded values; a candidate is kept only when the current reducers take
/// those places from the same values before the step to the same replayed values as in the full session, so the
/// recorded values are the session's own and never invented. For a crash, a candidate is kept when the host
/// crashes on its last action and that action has the crashing one's name.
///
/// For an effect divergence a candidate keeps, with each kept action, the effect lines of the runs it started (their
/// `call` and `effectEnd` lines and every action they sent, even after the divergence), so that it stays a valid
/// format 2 session whose runs are whole; its states are the current reducers', and it is kept when its check
/// diverges first in the same effect, started by an action of the same name that is the same original action, with
/// the same kind of difference (the same values, steps aside).
struct SessionMinimizer {
    /// What every kept candidate reproduces.
    enum Target {
        /// A divergence at `step`: the same change at each anchor.
        case divergence(step: Int, actionName: String, anchors: [Anchor])
        /// A host that crashes on the action at `step`, named `actionName`.
        case crash(step: Int, actionName: String, message: String)
        /// A rerun effect that diverges first, the same way.
        case effectDivergence(EffectDivergence)

        /// The step in the full session.
        var step: Int {
            switch self {
            case .divergence(let step, _, _), .crash(let step, _, _): step
            case .effectDivergence(let divergence): divergence.step
            }
        }
    }

    /// A place whose value the diverging step sets wrongly: the path of a changed value, or for an added, removed
    /// or moved value the object or array that holds it (a place both states have).
    struct Anchor {
        /// Where.
        var path: JSONPath
        /// The value before the diverging step (the recorded state before it, which the replay matched).
        var before: JSONValue?
        /// The value the current reducer sets.
        var replayed: JSONValue?
        /// The value the session recorded.
        var recorded: JSONValue?
    }

    /// The smallest session found and how it was found.
    struct Outcome {
        /// What it reproduces.
        var target: Target
        /// The session to write.
        var session: Session
        /// The step of the written session that `diff` reproduces it at.
        var reproducedStep: Int
        /// Actions in the full session.
        var originalActions: Int
        /// Candidates replayed.
        var candidates: Int
        /// False when the time bound stopped the search.
        var finished: Bool
        /// Seconds spent.
        var seconds: Double
    }

    /// What replays the whole session and the candidates: the current host.
    var replayer: any CandidateReplaying
    /// When to stop searching. The replays before the search (of the whole session, and of the actions up to the
    /// divergence or crash) are not bounded by it: without them there is nothing to write.
    var deadline: Date
    /// Seconds a silent host is given in the replays before the search (during it, the time left).
    var hostTimeout: Double
    var terminal: Terminal
    /// The replayed states' places to leave out, as `diff` leaves them out.
    var ignoring: [JSONPathPattern]

    /// Minimizes `input`.
    /// - Throws: ``CLIError`` when the session is unreadable, has gaps, neither diverges (in a state or an effect) nor
    ///   crashes the host, or the host fails otherwise.
    func minimize(_ input: SessionInput) throws(CLIError) -> Outcome {
        let started = Date()
        defer { terminal.endProgress() }
        let session: Session
        do {
            session = try Session(contentsOf: input.path)
        } catch {
            throw CLIError(error, in: input)
        }
        if session.events.contains(where: { if case .gap = $0 { true } else { false } }) {
            throw CLIError(
                .input, "the session has gaps: what happened in them is unknown, so no smaller session can stand for it",
                file: input.displayName)
        }
        let actions = session.actions
        terminal.progress("minimize \(input.displayName): replaying all \(actions.count) actions")
        let target = try findTarget(session, input: input)
        let prefix: [ActionEvent]
        let required: [Int]
        let units: [[Int]]
        if case .effectDivergence(let divergence) = target {
            // Every action the kept runs sent stays, even after the divergence: a run is kept whole.
            prefix = actions
            units = Self.units(of: actions).filter { $0[0] <= target.step }
            required = units.first { $0.contains(divergence.cause) } ?? [divergence.cause]
        } else {
            prefix = actions.filter { $0.sequence <= target.step }
            units = Self.units(of: prefix)
            required = units.first { $0.contains(target.step) } ?? [target.step]
        }
        let optional = units.filter { $0 != required }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("replay-cli-minimize-\(UUID().uuidString.prefix(8))")
        do {
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        } catch {
            throw CLIError(.output, "cannot make a scratch folder \(scratch.path): \(error.localizedDescription)")
        }
        defer { try? FileManager.default.removeItem(at: scratch) }
        var candidates = 0
        /// Replays the candidate made of `chosen` units and the required one; its session to write, and the step it
        /// reproduces the target at, when it does. A `bounded` replay stops at the deadline and then does not count.
        func reproduction(_ chosen: [[Int]], bounded: Bool = true) throws(CLIError) -> (session: Session, step: Int)? {
            candidates += 1
            let steps = Set(required + chosen.flatMap { $0 })
            let kept = prefix.filter { steps.contains($0.sequence) }
            let candidate = Self.candidate(session, keeping: kept)
            terminal.progress("minimize \(input.displayName): candidate \(candidates), \(candidate.actions.count) actions")
            let path = scratch.appendingPathComponent("candidate-\(candidates).jsonl").path
            guard FileManager.default.createFile(atPath: path, contents: Data(candidate.ndjson)) else {
                throw CLIError(.output, "cannot write a candidate session to \(path)")
            }
            defer { try? FileManager.default.removeItem(atPath: path) }
            let timeout = bounded ? max(1, deadline.timeIntervalSinceNow) : hostTimeout
            let name = "a candidate of \(input.displayName)"
            do throws(CLIError) {
                let exchange = try replayer.states(of: SessionInput(file: path, displayName: name), timeout: timeout)
                guard let written = try Self.written(candidate, target: target, exchange: exchange, recordedLast: prefix.last?.state)
                else { return nil }
                guard case .effectDivergence(let wanted) = target else { return (written, written.actions.count) }
                // The states are the current reducers': the check's first finding is the effects'.
                guard FileManager.default.createFile(atPath: path, contents: Data(written.ndjson)) else {
                    throw CLIError(.output, "cannot write a candidate session to \(path)")
                }
                let report = try replayer.check(
                    SessionInput(file: path, displayName: name), ignoring: ignoring, timeout: timeout)
                guard case .effectDiverged(let found) = report.verdict,
                    Self.sameEffectDivergence(found, as: wanted, keptSteps: kept.map(\.sequence))
                else { return nil }
                return (written, found.step)
            } catch {
                // A candidate still running at the time bound does not count; the smallest one so far is written.
                if bounded, Date() >= deadline { return nil }
                throw error
            }
        }
        guard let whole = try reproduction(optional, bounded: false) else {
            throw CLIError(
                .host, "the actions up to step \(target.step) replayed on their own do not reproduce what the whole session does (is the reducer nondeterministic? try diff --determinism)",
                file: input.displayName)
        }
        var best = whole
        let search = try DeltaDebugging.minimize(optional, deadline: deadline) { chosen throws(CLIError) -> Bool in
            guard let written = try reproduction(chosen) else { return false }
            best = written
            return true
        }
        return Outcome(
            target: target, session: best.session, reproducedStep: best.step, originalActions: actions.count,
            candidates: candidates, finished: search.finished, seconds: Date().timeIntervalSince(started))
    }

    /// Replays the whole session: a crash is the target; else the first divergence of a check is.
    private func findTarget(_ session: Session, input: SessionInput) throws(CLIError) -> Target {
        switch try replayer.states(of: input, timeout: hostTimeout) {
        case .stopped(let stop):
            guard let last = stop.lastStep else { throw stop.error }
            return .crash(step: last.step, actionName: last.name, message: stop.error.message)
        case .answered(let answer):
            if let failure = answer.result.failure { throw CLIError(.input, failure, file: input.displayName) }
        }
        let report = try replayer.check(input, ignoring: ignoring, timeout: hostTimeout)
        if case .effectDiverged(let divergence) = report.verdict { return .effectDivergence(divergence) }
        guard case .diverged(let divergence) = report.verdict else {
            throw CLIError(
                .input, "nothing to minimize: the session replays as '\(report.verdict.name)' (minimize needs one that diverges, whose effect diverges, or that crashes the host)",
                file: input.displayName)
        }
        let before = session.actions.last { $0.sequence < divergence.step }?.state ?? session.header.initialState
        var paths: [JSONPath] = []
        for change in divergence.diff.changes {
            let path: JSONPath
            if case .changed = change.kind {
                path = change.path
            } else {
                path = JSONPath(Array(change.path.components.dropLast()))
            }
            if !paths.contains(path) { paths.append(path) }
        }
        let anchors = paths.map {
            Anchor(
                path: $0, before: before.value(at: $0), replayed: divergence.replayed.value(at: $0),
                recorded: divergence.recorded.value(at: $0))
        }
        return .divergence(step: divergence.step, actionName: divergence.actionName, anchors: anchors)
    }

    /// The actions grouped by the app action that caused them: an effect's actions join their cause's group
    /// (transitively); an action whose cause is before the recording starts its own. Groups in order of their first action.
    static func units(of actions: [ActionEvent]) -> [[Int]] {
        var root: [Int: Int] = [:]
        var members: [Int: [Int]] = [:]
        var order: [Int] = []
        for action in actions {
            var unit = action.sequence
            if case .effect(let cause?) = action.origin, let causeUnit = root[cause] { unit = causeUnit }
            root[action.sequence] = unit
            if members[unit] == nil { order.append(unit) }
            members[unit, default: []].append(action.sequence)
        }
        return order.map { members[$0] ?? [] }
    }

    /// A session of `kept` actions under `session`'s header, numbered 1, 2, 3 ... with their causes renumbered (a
    /// cause left out becomes unknown), states as recorded (a `states` request ignores them) and full snapshots; with
    /// the `call` and `effectEnd` lines of the effect runs the kept actions started, in their places, their causes
    /// renumbered too.
    static func candidate(_ session: Session, keeping kept: [ActionEvent]) -> Session {
        let keptSequences = Set(kept.map(\.sequence))
        var renumbered: [Int: Int] = [:]
        var events: [SessionEvent] = []
        for event in session.events {
            switch event {
            case .action(let original) where keptSequences.contains(original.sequence):
                var action = original
                action.sequence = renumbered.count + 1
                renumbered[original.sequence] = action.sequence
                if case .effect(let cause) = original.origin { action.origin = .effect(cause: cause.flatMap { renumbered[$0] }) }
                action.patch = nil
                events.append(.action(action))
            case .call(var call):
                guard let cause = renumbered[call.cause] else { continue }
                call.cause = cause
                events.append(.call(call))
            case .effectEnd(var end):
                guard let cause = renumbered[end.cause] else { continue }
                end.cause = cause
                events.append(.effectEnd(end))
            case .header, .action, .gap, .end:
                continue
            }
        }
        var header = session.header
        header.metadata["minimizedFrom"] = .object([
            "sessionId": .string(session.header.sessionID), "actions": .integer(Int64(session.actions.count)),
            "steps": .array(kept.map { .integer(Int64($0.sequence)) }),
        ])
        return Session(header: header, events: events)
    }

    /// Whether `found`, the first effect divergence of a candidate that keeps the original actions `keptSteps` (in
    /// order), is `wanted`, the full session's: the same effect, started by the same original action, with the same
    /// kind of difference; the steps that kind names are the candidate's own, so they do not count.
    static func sameEffectDivergence(_ found: EffectDivergence, as wanted: EffectDivergence, keptSteps: [Int]) -> Bool {
        found.effect == wanted.effect && found.causeName == wanted.causeName
            && keptSteps.indices.contains(found.cause - 1) && keptSteps[found.cause - 1] == wanted.cause
            && found.kind.withoutSteps == wanted.kind.withoutSteps
    }

    /// `candidate` with the states to write when its replay reproduces `target`; `nil` when it does not.
    static func written(
        _ candidate: Session, target: Target, exchange: ReplayHostClient.Exchange, recordedLast: JSONValue?
    ) throws(CLIError) -> Session? {
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
        var events: [SessionEvent] = []
        var stateOf = Dictionary(uniqueKeysWithValues: zip(actions.map(\.sequence), states))
        for event in candidate.events {
            guard case .action(var written) = event else {
                events.append(event)
                continue
            }
            guard let state = stateOf.removeValue(forKey: written.sequence) else { return nil }
            written.state = state
            events.append(.action(written))
        }
        events.append(.end(EndEvent(reason: .finished, actions: actions.count, dropped: 0, time: last.time)))
        return Session(header: candidate.header, events: events)
    }
}

extension EffectDivergence.Kind {
    /// The kind with the recorded steps of its actions left out, for comparing a candidate's with the full
    /// session's.
    fileprivate var withoutSteps: Self {
        func stepless(_ action: EffectAction) -> EffectAction { EffectAction(name: action.name, action: action.action) }
        switch self {
        case .actionNotRecorded(let sent): return .actionNotRecorded(sent: stepless(sent))
        case .actionNotSent(let recorded): return .actionNotSent(recorded: stepless(recorded))
        case .actionDiffers(let recorded, let sent, let diff):
            return .actionDiffers(recorded: stepless(recorded), sent: stepless(sent), diff: diff)
        default: return self
        }
    }
}
