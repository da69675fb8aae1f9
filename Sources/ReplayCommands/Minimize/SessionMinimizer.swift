import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// Reduces a session on which the current code goes wrong (a state diverges, a rerun effect diverges, or the host
/// crashes) to the fewest actions that still do the same, by delta debugging over the app's own actions
/// (`docs/replay-cli.md`, "minimize").
///
/// A subset of actions has no recorded states: the code that recorded them is gone. With a ``Baseline`` (a version
/// of the code that is right about the session), the states come from it: the full session, written with the
/// baseline's states, shows how the current code differs from the baseline (the target), and a candidate is kept
/// only when, written with the baseline's states too, the current code differs from them the same way and the
/// baseline replays it as a match. The session written is then an exact test: it fails through the current code
/// and passes through the baseline.
///
/// Without one (``Baseline`` `nil`), the old rule stands, unchecked against a correct version: a candidate's states
/// are the current reducers', and a divergence is kept when the current reducers take the diverging places from the
/// same values to the same wrong ones as in the full session (their recorded values written at the last step); a
/// crash when the host crashes on the last action, of the crashing one's name; an effect divergence when the
/// check's first finding is the same run's, the same way.
///
/// A candidate keeps, with each kept action, the effect lines of the runs it started (their `call` and `effectEnd`
/// lines) up to its last action, so that it stays a valid format 2 session.
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
        /// The value before the diverging step (the state written before it, which the replay matched).
        var before: JSONValue?
        /// The value the current reducer sets.
        var replayed: JSONValue?
        /// The value the session holds (recorded, or the baseline's).
        var recorded: JSONValue?
    }

    /// The version of the code that candidates are checked against.
    struct Baseline {
        /// Its host.
        var replayer: any CandidateReplaying
        /// Its commit, in full, for the written session's header.
        var commit: String
        /// `1a2b3c4 "Subject"`, as messages name it.
        var title: String
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
    /// What they are checked against; `nil` for the current code alone (`--without-baseline`).
    var baseline: Baseline?
    /// When to stop searching. The replays before the search (of the whole session, and of the actions up to the
    /// divergence or crash) are not bounded by it: without them there is nothing to write.
    var deadline: Date
    /// Seconds a silent host is given in the replays before the search (during it, the time left).
    var hostTimeout: Double
    var terminal: Terminal
    /// The replayed states' places to leave out, as `diff` leaves them out.
    var ignoring: [JSONPathPattern]

    /// Minimizes `input`.
    /// - Throws: ``CLIError`` when the session is unreadable, has gaps, has nothing to minimize (the current code
    ///   neither diverges from the recording, or from the baseline, nor crashes), the baseline does not replay it,
    ///   or a host fails otherwise.
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
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("replay-cli-minimize-\(UUID().uuidString.prefix(8))")
        do {
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        } catch {
            throw CLIError(.output, "cannot make a scratch folder \(scratch.path): \(error.localizedDescription)")
        }
        defer { try? FileManager.default.removeItem(at: scratch) }
        let actions = session.actions
        terminal.progress("minimize \(input.displayName): replaying all \(actions.count) actions")
        let target: Target
        if let baseline {
            target = try self.target(of: session, input: input, against: baseline, scratch: scratch)
        } else {
            target = try uncheckedTarget(of: session, input: input)
        }
        let prefix: [ActionEvent]
        let required: [Int]
        let units: [[Int]]
        let through: Int?
        if case .effectDivergence(let divergence) = target {
            // Every action the kept runs sent stays, even after the divergence: a run is kept whole.
            prefix = actions
            units = Self.units(of: actions).filter { $0[0] <= target.step }
            required = units.first { $0.contains(divergence.cause) } ?? [divergence.cause]
            through = nil
        } else {
            prefix = actions.filter { $0.sequence <= target.step }
            units = Self.units(of: prefix)
            required = units.first { $0.contains(target.step) } ?? [target.step]
            through = target.step
        }
        let optional = units.filter { $0 != required }
        var candidates = 0
        /// Replays the candidate made of `chosen` units and the required one; its session to write, and the step it
        /// reproduces the target at, when it does. A `bounded` replay stops at the deadline and then does not count.
        func reproduction(_ chosen: [[Int]], bounded: Bool = true) throws(CLIError) -> (session: Session, step: Int)? {
            candidates += 1
            let steps = Set(required + chosen.flatMap { $0 })
            let kept = prefix.filter { steps.contains($0.sequence) }
            let candidate = Self.candidate(session, keeping: kept, through: through, baseline: baseline?.commit)
            terminal.progress("minimize \(input.displayName): candidate \(candidates), \(candidate.actions.count) actions")
            let file = SessionInput(
                file: scratch.appendingPathComponent("candidate-\(candidates).jsonl").path, displayName: "a candidate of \(input.displayName)")
            try Self.write(candidate, to: file)
            defer { try? FileManager.default.removeItem(atPath: file.path) }
            let timeout = bounded ? max(1, deadline.timeIntervalSinceNow) : hostTimeout
            do throws(CLIError) {
                if let baseline {
                    return try checkedReproduction(candidate, in: file, of: target, against: baseline, keptSteps: kept.map(\.sequence), timeout: timeout)
                }
                return try uncheckedReproduction(
                    candidate, in: file, of: target, keptSteps: kept.map(\.sequence), recordedLast: prefix.last?.state, timeout: timeout)
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
    /// renumbered too, up to the original action `through` when given (what its runs did after it is left out, as
    /// in a session that ended there). The header's `metadata.minimizedFrom` names the original session, its
    /// action count, the steps kept and the `baseline` commit the candidate is checked against, when there is one.
    static func candidate(_ session: Session, keeping kept: [ActionEvent], through: Int? = nil, baseline: String? = nil) -> Session {
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
            case .header, .action, .gap, .end, .note:
                continue
            }
            if case .action(let original) = event, original.sequence == through { break }
        }
        var header = session.header
        var origin: [String: JSONValue] = [
            "sessionId": .string(session.header.sessionID), "actions": .integer(Int64(session.actions.count)),
            "steps": .array(kept.map { .integer(Int64($0.sequence)) }),
        ]
        if let baseline { origin["baseline"] = .string(baseline) }
        header.metadata["minimizedFrom"] = .object(origin)
        return Session(header: header, events: events)
    }

    /// `session` with `states` as its actions' states, in order, as full snapshots, and an `end` line for its
    /// actions; `nil` when there are not as many states as actions.
    static func session(_ session: Session, withStates states: [JSONValue]) -> Session? {
        let actions = session.actions
        guard states.count == actions.count, let last = actions.last else { return nil }
        var remaining = states[...]
        var events: [SessionEvent] = []
        for event in session.events {
            switch event {
            case .action(var action):
                action.state = remaining.removeFirst()
                action.patch = nil
                events.append(.action(action))
            case .end:
                continue
            default:
                events.append(event)
            }
        }
        events.append(.end(EndEvent(reason: .finished, actions: actions.count, dropped: 0, time: last.time)))
        return Session(header: session.header, events: events)
    }

    /// Writes `session` to `file`'s path.
    static func write(_ session: Session, to file: SessionInput) throws(CLIError) {
        guard FileManager.default.createFile(atPath: file.path, contents: Data(session.ndjson)) else {
            throw CLIError(.output, "cannot write a session to \(file.path)")
        }
    }

    /// The places `divergence` sets wrongly in `session` (the state before its step taken from `session`).
    static func anchors(of divergence: Divergence, in session: Session) -> [Anchor] {
        let before = session.actions.last { $0.sequence < divergence.step }?.state ?? session.header.initialState
        return places(of: divergence).map {
            Anchor(
                path: $0, before: before.value(at: $0), replayed: divergence.replayed.value(at: $0),
                recorded: divergence.recorded.value(at: $0))
        }
    }

    /// The places a divergence sets wrongly: each changed value's path, or for an added, removed or moved value the
    /// object or array that holds it; in the diff's order, each once.
    static func places(of divergence: Divergence) -> [JSONPath] {
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
        return paths
    }

    /// Whether `found`, the first effect divergence of a candidate that keeps the original actions `keptSteps` (in
    /// order), is `wanted`, the full session's: the same effect, started by the same original action, with the same
    /// kind of difference; the steps that kind names are the candidate's own, so they do not count.
    static func sameEffectDivergence(_ found: EffectDivergence, as wanted: EffectDivergence, keptSteps: [Int]) -> Bool {
        found.effect == wanted.effect && found.causeName == wanted.causeName
            && keptSteps.indices.contains(found.cause - 1) && keptSteps[found.cause - 1] == wanted.cause
            && found.kind.withoutSteps == wanted.kind.withoutSteps
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
