import CommandLineOptions
import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// Replays a session in two host processes that differ in hash seed and finds the first step where the two
/// replays disagree with each other: a reducer that reads something besides its state and action (the clock, a
/// `Set`'s or a `Dictionary`'s order, a random number), or a replayable effect that reads something besides its
/// action, its state and its context (`Date()` instead of its context's clock, `UUID()`, a `Set`'s order), either of
/// which makes a comparison with the recording meaningless.
///
/// The first process runs with `SWIFT_DETERMINISTIC_HASHING=1` (Swift's hash seed fixed), the second without it
/// (a random seed per process), so a `Set` or a `Dictionary` iterates in another order in each; the two run one after
/// the other, so code that reads the clock sees two times. States are compared as canonical JSON, in which a
/// `Set` and a `Dictionary` are written sorted, so equal states are equal in both processes. When the states agree
/// and the session's effects were rerun, the session is checked in two such processes too, and each effect run's
/// findings against the recording (what it sent and called where that differs, or nothing) must be the same in
/// both: two reruns from the same recorded inputs that send differently are nondeterministic.
struct HostDeterminism {
    /// `--determinism`, which `diff` and `check` take.
    static let flag = Flag(
        "--determinism",
        help: "first replay each session twice, in hosts with different hash seeds, and report 'nondeterministic' where they disagree")

    /// The variable that fixes Swift's hash seed in the first replay; unset in the second.
    static let hashingVariable = "SWIFT_DETERMINISTIC_HASHING"

    /// The first step where the two replays disagree.
    struct Finding {
        /// The step (the action's sequence number).
        var step: Int
        /// The action's display name.
        var actionName: String
        /// What differs between the two replays.
        var difference: Difference
        /// How many actions the session has.
        var actionCount: Int

        /// What two replays of the same session did differently.
        enum Difference {
            /// The state after the step, from the first replay's to the second's.
            case state(StateDiff)
            /// An effect run that did otherwise in each replay.
            case effect(EffectDisagreement)
        }

        /// The finding as a person reads it.
        func explanationLines(source: String) -> [RenderedLine] {
            switch difference {
            case .state(let diff):
                var lines = [
                    RenderedLine(.text, "\(source): nondeterministic at step \(step) of \(actionCount) (\(actionName.escapingControls()))"),
                    RenderedLine(.text, "  two replays of the same actions disagree, so a diff against the recording means nothing until this is fixed"),
                    RenderedLine(.text, "  the reducer reads something besides its state and action: the clock, a Set's or Dictionary's order, a random number"),
                    RenderedLine(.text, ""),
                    RenderedLine(.text, "  state after step \(step) (- \(HostDeterminism.hashingVariable)=1, + a random hash seed)"),
                ]
                lines += diff.renderedLines().map { RenderedLine($0.kind, "  " + $0.text) }
                lines += diff.summary.split(separator: "\n", omittingEmptySubsequences: false).map { RenderedLine(.text, "  " + $0) }
                return lines
            case .effect(let disagreement):
                return [
                    RenderedLine(
                        .text,
                        "\(source): nondeterministic at step \(step) of \(actionCount): effect \"\(disagreement.effect.escapingControls())\", started by step \(disagreement.cause) \(disagreement.causeName.escapingControls())"),
                    RenderedLine(.text, "  two reruns of the effect from the same recorded inputs did not do the same, so a diff against the recording means nothing until this is fixed"),
                    RenderedLine(.text, "  the effect reads something besides its action, its state and its context: Date() instead of context.clock, UUID() instead of context.uuid(), a Set's or Dictionary's order"),
                ] + disagreement.sideLines(disagreement.first, replay: "\(HostDeterminism.hashingVariable)=1", actionCount: actionCount)
                    + disagreement.sideLines(disagreement.second, replay: "a random hash seed", actionCount: actionCount)
            }
        }

        /// `step 3 toggleCompleted, todos[id: …].title`, or `step 2, effect "post score" of step 1 scored`.
        var oneLine: String {
            switch difference {
            case .state(let diff):
                "step \(step) \(actionName.escapingControls()), \(diff.changes.map { "\($0.path)" }.prefix(3).joined(separator: ", "))"
            case .effect(let disagreement):
                "step \(step), effect \"\(disagreement.effect.escapingControls())\" of step \(disagreement.cause) \(disagreement.causeName.escapingControls())"
            }
        }

        /// The finding as data: a state's `changes`, or an effect's run and what each replay found of it
        /// (`firstReplay`, `secondReplay`: an effect divergence as a report writes it, or `null` for a rerun that did
        /// as recorded).
        var jsonValue: JSONValue {
            var members: [String: JSONValue] = [
                "step": .integer(Int64(step)), "action": .string(actionName),
                "first": .string("\(HostDeterminism.hashingVariable)=1"), "second": .string("a random hash seed"),
            ]
            switch difference {
            case .state(let diff):
                members["changes"] = diff.jsonValue
            case .effect(let disagreement):
                members["effect"] = .object([
                    "name": .string(disagreement.effect), "cause": .integer(Int64(disagreement.cause)),
                    "causeName": .string(disagreement.causeName),
                    "firstReplay": disagreement.first?.jsonValue ?? .null,
                    "secondReplay": disagreement.second?.jsonValue ?? .null,
                ])
            }
            return .object(members)
        }
    }

    /// One effect run whose rerun found something else against the recording in each replay.
    struct EffectDisagreement {
        /// The effect's name.
        var effect: String
        /// The step of the action that started the run.
        var cause: Int
        /// That action's display name.
        var causeName: String
        /// What the first replay found of the run; `nil` when it did as recorded.
        var first: EffectDivergence?
        /// What the second replay found of the run; `nil` when it did as recorded.
        var second: EffectDivergence?

        /// What one replay found of the run, under a line naming the replay.
        func sideLines(_ divergence: EffectDivergence?, replay: String, actionCount: Int) -> [RenderedLine] {
            guard let divergence else {
                return [RenderedLine(.text, ""), RenderedLine(.text, "  replay with \(replay): the effect did as recorded")]
            }
            // The divergence's own headline names the run and the step, which the finding's first line already does.
            return [RenderedLine(.text, ""), RenderedLine(.text, "  replay with \(replay):")]
                + divergence.explanationLines(actionCount: actionCount).dropFirst().map { RenderedLine($0.kind, "  " + $0.text) }
        }
    }

    var host: HostCommand
    var timeout: Double

    /// Replays `session` twice and returns where the replays first disagree: in a state, else in an effect run;
    /// `nil` when they agree everywhere.
    /// - Throws: ``CLIError`` when either replay fails (a crash, an unknown store, a value that no longer decodes).
    func check(_ session: SessionInput) throws(CLIError) -> Finding? {
        let fixed = try states(of: session, hashing: "1")
        let random = try states(of: session, hashing: nil)
        for (first, second) in zip(fixed, random) where first.state != second.state {
            return Finding(
                step: first.step, actionName: first.name, difference: .state(StateDiff(from: first.state, to: second.state)),
                actionCount: fixed.count)
        }
        let first = try report(of: session, hashing: "1")
        guard first.effects.runsReplayed > 0 || !first.effectDivergences.isEmpty else { return nil }
        let second = try report(of: session, hashing: nil)
        guard let disagreement = Self.firstDisagreement(first.effectDivergences, second.effectDivergences) else { return nil }
        let step = min(disagreement.first?.step ?? .max, disagreement.second?.step ?? .max)
        return Finding(
            step: step, actionName: fixed.first { $0.step == step }?.name ?? "", difference: .effect(disagreement),
            actionCount: fixed.count)
    }

    /// The first effect run, by the step its findings show at, whose findings differ between two replays' lists.
    static func firstDisagreement(_ first: [EffectDivergence], _ second: [EffectDivergence]) -> EffectDisagreement? {
        func byRun(_ divergences: [EffectDivergence]) -> [EffectRun: EffectDivergence] {
            Dictionary(divergences.map { (EffectRun(cause: $0.cause, effect: $0.effect), $0) }) { earlier, _ in earlier }
        }
        let firstRuns = byRun(first)
        let secondRuns = byRun(second)
        let differing = (first + second).filter { firstRuns[EffectRun(cause: $0.cause, effect: $0.effect)] != secondRuns[EffectRun(cause: $0.cause, effect: $0.effect)] }
        guard let earliest = differing.min(by: { ($0.step, $0.cause, $0.effect) < ($1.step, $1.cause, $1.effect) }) else {
            return nil
        }
        let run = EffectRun(cause: earliest.cause, effect: earliest.effect)
        return EffectDisagreement(
            effect: earliest.effect, cause: earliest.cause, causeName: earliest.causeName, first: firstRuns[run],
            second: secondRuns[run])
    }

    /// An effect run: the step that started it and the effect's name.
    private struct EffectRun: Hashable {
        var cause: Int
        var effect: String
    }

    /// The report of checking `session` in a host whose hash seed `hashing` sets (or leaves random, `nil`), every
    /// divergence found, so that the effect runs after a state's divergence are compared too.
    private func report(of session: SessionInput, hashing: String?) throws(CLIError) -> ReplayReport {
        let client = ReplayHostClient(host: host, timeout: timeout, environment: [Self.hashingVariable: hashing])
        return try client.check(session, ReplayHostClient.Checking(findAll: true), progressOn: nil).report
    }

    private func states(of session: SessionInput, hashing: String?) throws(CLIError) -> [ReplayHostClient.ReplayedState] {
        let client = ReplayHostClient(host: host, timeout: timeout, environment: [Self.hashingVariable: hashing])
        let answer = try client.answer(ReplayHostRequest(command: .states), session: session)
        if let failure = answer.result.failure { throw CLIError(.input, failure, file: session.displayName) }
        return answer.states
    }
}
