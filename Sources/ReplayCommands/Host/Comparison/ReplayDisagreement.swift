import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// The first step where two replays of one session (``ReplayPair``) disagree: in the state after it, in what an
/// effect run did against the recording, or in whether the host got past it.
struct ReplayDisagreement {
    /// The step (the action's sequence number).
    var step: Int
    /// The action's display name.
    var actionName: String
    /// The action as the session records it; `nil` when the session has no action at the step.
    var action: JSONValue?
    /// What differs between the two replays.
    var difference: Difference
    /// How many actions the two replays replayed (the most either did).
    var actionCount: Int
    /// How many steps the session covers (``ReplayReport/stepCount``): its last sequence number, gaps included.
    var stepCount: Int
    /// How messages name the first replay (`-` in a state's diff).
    var first: String
    /// How messages name the second replay (`+` in a state's diff).
    var second: String

    /// What two replays of the same session did differently.
    enum Difference {
        /// The state after the step, from the first replay's to the second's.
        case state(StateDiff)
        /// An effect run that did otherwise in each replay.
        case effect(EffectDisagreement)
        /// One replay's host stopped at the step (a crash, an exit) and the other's did not, or stopped elsewhere;
        /// each side's error, `nil` for the one that got past it.
        case stop(first: CLIError?, second: CLIError?)
    }

    /// The first line of the finding: `<source>: <verdict> at step 3 of 40 (toggleCompleted(id: 2))`, or for an
    /// effect `<source>: <verdict> at step 3 of 40: effect "post score", started by step 2 scored(2)`; actions as
    /// ``ActionText`` writes them.
    func headline(source: String, verdict: String) -> RenderedLine {
        let at = "\(source): \(verdict) at step \(step) of \(stepCount)"
        guard case .effect(let disagreement) = difference else {
            return RenderedLine(.text, "\(at) (\(actionText))")
        }
        return RenderedLine(
            .text,
            "\(at): effect \"\(disagreement.effect.escapingControls())\", started by step \(disagreement.cause) \(ActionText.of(disagreement.causeAction, named: disagreement.causeName))")
    }

    /// The difference as a person reads it, indented, after the headline and whatever the caller says of it: a
    /// blank line and the state's diff, each side's findings of the effect run, or what each side's host did.
    var detailLines: [RenderedLine] {
        switch difference {
        case .state(let diff):
            var lines = [RenderedLine(.text, ""), RenderedLine(.text, "  state after step \(step) (- \(first), + \(second))")]
            lines += diff.renderedLines().map { RenderedLine($0.kind, "  " + $0.text) }
            lines += diff.summary.split(separator: "\n", omittingEmptySubsequences: false).map { RenderedLine(.text, "  " + $0) }
            return lines
        case .effect(let disagreement):
            return disagreement.sideLines(disagreement.first, replay: first, stepCount: stepCount)
                + disagreement.sideLines(disagreement.second, replay: second, stepCount: stepCount)
        case .stop(let firstError, let secondError):
            return [RenderedLine(.text, "")] + [(first, firstError), (second, secondError)].flatMap { name, error in
                // The host's own words (its stderr) may run over many lines; each is indented under the replay's name.
                let said = (error.map { "stopped: \($0.description)" } ?? "replayed it").split(separator: "\n", omittingEmptySubsequences: false)
                return [RenderedLine(.text, "  \(name): \(said[0])")] + said.dropFirst().map { RenderedLine(.text, "    \($0)") }
            }
        }
    }

    /// `step 3 toggleCompleted(id: 2), todos[id: …].title`, `step 2, effect "post score" of step 1 scored(2)`, or
    /// `step 5 advance, the host of current stopped`.
    var oneLine: String {
        switch difference {
        case .state(let diff):
            "step \(step) \(actionText), \(diff.changes.map { "\($0.path)" }.prefix(3).joined(separator: ", "))"
        case .effect(let disagreement):
            "step \(step), effect \"\(disagreement.effect.escapingControls())\" of step \(disagreement.cause) \(ActionText.of(disagreement.causeAction, named: disagreement.causeName))"
        case .stop(let firstError, _):
            "step \(step) \(actionText), the host of \(firstError == nil ? second : first) stopped"
        }
    }

    /// The step's action as ``ActionText`` writes it, or its name when the session has no action there.
    var actionText: String { ActionText.of(action, named: actionName) }

    /// Where or what differs, in a few words: the first path whose value differs, the effect that did otherwise, or
    /// the replay whose host stopped.
    var place: String {
        switch difference {
        case .state(let diff): diff.changes.first.map { "\($0.path)" } ?? ""
        case .effect(let disagreement): "effect \"\(disagreement.effect)\" of step \(disagreement.cause)"
        case .stop(let firstError, _): "the host of \(firstError == nil ? second : first) stopped"
        }
    }

    /// The disagreement as data: the step, the action, the two replays' names (`first`, `second`), and a state's
    /// `changes`, an effect's run and what each replay found of it (`firstReplay`, `secondReplay`: an effect
    /// divergence as a report writes it, or `null` for a rerun that did as recorded), or each replay's `stopped`
    /// error (`null` for the one that got past the step).
    var jsonValue: JSONValue {
        var members: [String: JSONValue] = [
            "step": .integer(Int64(step)), "action": .string(actionName), "first": .string(first), "second": .string(second),
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
        case .stop(let firstError, let secondError):
            members["stopped"] = .object([
                "first": firstError.map { .string($0.description) } ?? .null,
                "second": secondError.map { .string($0.description) } ?? .null,
            ])
        }
        return .object(members)
    }
}

/// One effect run whose rerun found something else against the recording in each of two replays.
struct EffectDisagreement {
    /// The effect's name.
    var effect: String
    /// The step of the action that started the run.
    var cause: Int
    /// That action's display name.
    var causeName: String
    /// That action's JSON, when replay saw the run start.
    var causeAction: JSONValue?
    /// What the first replay found of the run; `nil` when it did as recorded.
    var first: EffectDivergence?
    /// What the second replay found of the run; `nil` when it did as recorded.
    var second: EffectDivergence?

    /// What one replay found of the run, under a line naming the replay.
    func sideLines(_ divergence: EffectDivergence?, replay: String, stepCount: Int) -> [RenderedLine] {
        guard let divergence else {
            return [RenderedLine(.text, ""), RenderedLine(.text, "  replay with \(replay): the effect did as recorded")]
        }
        // The divergence's own headline names the run and the step, which the finding's first line already does.
        return [RenderedLine(.text, ""), RenderedLine(.text, "  replay with \(replay):")]
            + divergence.explanationLines(stepCount: stepCount).dropFirst().map { RenderedLine($0.kind, "  " + $0.text) }
    }

    /// The first effect run, by the step its findings show at, whose findings differ between two replays' lists.
    static func first(between first: [EffectDivergence], and second: [EffectDivergence]) -> EffectDisagreement? {
        func byRun(_ divergences: [EffectDivergence]) -> [Run: EffectDivergence] {
            Dictionary(divergences.map { (Run(cause: $0.cause, effect: $0.effect), $0) }) { earlier, _ in earlier }
        }
        let firstRuns = byRun(first)
        let secondRuns = byRun(second)
        let differing = (first + second).filter { firstRuns[Run(cause: $0.cause, effect: $0.effect)] != secondRuns[Run(cause: $0.cause, effect: $0.effect)] }
        guard let earliest = differing.min(by: { ($0.step, $0.cause, $0.effect) < ($1.step, $1.cause, $1.effect) }) else {
            return nil
        }
        let run = Run(cause: earliest.cause, effect: earliest.effect)
        return EffectDisagreement(
            effect: earliest.effect, cause: earliest.cause, causeName: earliest.causeName,
            causeAction: (firstRuns[run] ?? secondRuns[run])?.causeAction, first: firstRuns[run],
            second: secondRuns[run])
    }

    /// An effect run: the step that started it and the effect's name.
    private struct Run: Hashable {
        var cause: Int
        var effect: String
    }
}
