import StoreKitCore

extension ReplayReport {
    /// The report as a person reads it, like a good test failure: what was replayed, the verdict, and for a
    /// divergence the step, the action and the state diff (`-` recorded, `+` replayed).
    /// - Parameter source: How to name the session, usually its path.
    public func explanation(source: String) -> String { explanationLines(source: source).text }

    /// ``explanation(source:)`` line by line, each with its kind, for a renderer that colours them: the diff's
    /// `-`/`+` lines as ``RenderedLine/Kind/removed`` and ``RenderedLine/Kind/added``, and a divergence's
    /// ``Divergence/precedingActions`` as ``RenderedLine/Kind/context`` lines (`before`) after its action.
    public func explanationLines(source: String) -> [RenderedLine] {
        var lines = [RenderedLine(.text, headline(source: source))]
        func say(_ text: String) { lines.append(RenderedLine(.text, text)) }
        switch verdict {
        case .match:
            let compared =
                effects.runsReplayed == 0
                ? "all \(stepsMatched) replayed states equal the recorded ones"
                : "\(stepsMatched) states and \(Self.count(effects.actionsEqual, "effect action")) equal (\(Self.count(effects.runsReplayed, "effect run")) replayed from \(Self.count(effects.inputsFed, "recorded input")))"
            say("match: \(compared)\(withoutStates.map { "; \($0)" } ?? "")\(effectsNotChecked.map { "; \($0)" } ?? "")")
        case .effectDiverged(let divergence):
            lines += divergence.explanationLines(stepCount: stepCount)
            if effectDivergences.count > 1 {
                say("  \(effectDivergences.count) effect runs diverged, at steps \(Self.stepList(effectDivergences.map(\.step)))")
            }
            if let notChecked = effectsNotChecked { say("  \(notChecked)") }
        case .diverged(let divergence):
            say("diverged at step \(divergence.step) of \(stepCount)")
            say("  action  \(ActionText.of(divergence.action, named: divergence.actionName))    (\(divergence.originText), \(Self.seconds(divergence.time)) in)")
            lines += divergence.precedingActions.map {
                RenderedLine(.context, "  before  \($0.step) \(ActionText.of($0.action, named: $0.name))")
            }
            if let unrecorded = divergence.unrecordedSteps {
                let steps = unrecorded.count == 1 ? "step \(unrecorded.lowerBound)" : "steps \(unrecorded.lowerBound)-\(unrecorded.upperBound)"
                say("  note    \(steps) before it replayed from actions the recorder kept without their states: the difference may have begun at any of them")
            }
            if !unreplayedGaps.isEmpty { say("  note    the session also has \(gapSummary)") }
            say("")
            say("  state after step \(divergence.step) (- recorded, + replayed)")
            lines += divergence.diff.renderedLines().map { $0.prefixed("  ") }
            lines += divergence.diff.summary.renderedLines(.text).map { $0.prefixed("  ") }
            for ignored in divergence.ignored {
                let places = ignored.paths.map(\.description)
                say("  ignored at this step by '\(ignored.pattern)': \(places.prefix(3).joined(separator: ", "))\(places.count > 3 ? " and \(places.count - 3) more" : "")")
            }
            if let note = divergence.comparedAsJSON { say("  note    \(note)") }
            if divergences.count > 1 {
                say("  \(divergences.count) diverging steps: \(Self.stepList(divergences.map(\.step)))")
            }
            if !effectDivergences.isEmpty {
                say("  effect runs also diverged, at steps \(Self.stepList(effectDivergences.map(\.step)))")
            }
        case .incomplete:
            say("incomplete: the session has \(gapSummary); the \(stepsMatched) steps that could be checked match\(withoutStates.map { "; \($0)" } ?? "")")
        case .undecodable(let failure):
            let at = failure.path.isEmpty ? "" : " at \(failure.path)"
            let step = failure.step == 0 ? "the initial state" : "step \(failure.step) (\(failure.actionName?.escapingControls() ?? "?"))"
            say("undecodable: \(step): the recorded \(failure.part.displayName) no longer decodes\(at): \(failure.message)")
        case .unknownStore(let id, let known):
            say("unknown store '\(id.escapingControls())': this replay knows \(known.isEmpty ? "no stores" : known.joined(separator: ", ").escapingControls())")
        }
        return lines + ignoredLines
    }

    /// What the comparison ignored, one line per pattern that covered differing values.
    private var ignoredLines: [RenderedLine] {
        Self.ignoredExplanation(ignoring: ignoring, ignored: ignored).map { RenderedLine(.text, $0) }
    }

    /// What a comparison that ignored the places `ignoring` names found there: a line naming the patterns, then one
    /// per pattern that covered differing values (how many steps, the first place and step); no lines without
    /// patterns.
    public static func ignoredExplanation(ignoring: [String], ignored: [IgnoredPattern]) -> [String] {
        guard !ignoring.isEmpty else { return [] }
        let patterns = ignoring.map { "'\($0)'" }.joined(separator: ", ")
        guard !ignored.isEmpty else { return ["ignoring \(patterns): no values differed there"] }
        return ["ignoring \(patterns):"]
            + ignored.map { found in
                let steps = found.steps == 1 ? "1 step" : "\(found.steps) steps"
                return "  '\(found.pattern)' covered differing values at \(steps), first \(found.firstPath) at step \(found.firstStep)"
            }
    }

    private func headline(source: String) -> String {
        let app = header.app
        var recordedBy = app.name.escapingControls()
        if !app.version.isEmpty { recordedBy += " \(app.version.escapingControls())" }
        if !app.build.isEmpty { recordedBy += " (build \(app.build.escapingControls()))" }
        let day = String(header.startedAt.prefix(10)).escapingControls()
        let storeID = header.storeID.escapingControls()
        // Replay stops at a value that no longer decodes or a store it does not know, before the rest is read.
        let readToTheEnd: Bool
        switch verdict {
        case .undecodable, .unknownStore: readToTheEnd = false
        case .match, .diverged, .effectDiverged, .incomplete: readToTheEnd = true
        }
        guard readToTheEnd else {
            return "\(source): store \"\(storeID)\", recorded by \(recordedBy) on \(day); replay stopped before the end"
        }
        let unfinished =
            switch end?.reason {
            case nil: ", no end line (still recording, or cut off)"
            case .timedOut: ", its finish timed out (end timedOut)"
            case .finished, .appExited, .disconnected: ""
            }
        let actions = Self.actionCount(actionCount, kept: actionsKeptWithoutStates)
        return "\(source): store \"\(storeID)\", \(actions), recorded by \(recordedBy) on \(day)\(unfinished)"
    }

    /// A session's actions as its summaries count them: `42 actions`, or `42 actions and 7 kept without their
    /// states` when its gaps kept some.
    package static func actionCount(_ actions: Int, kept: Int) -> String {
        kept == 0 ? "\(actions) actions" : "\(actions) actions and \(kept) kept without their states"
    }

    /// What of the session's effects was not checked, and why, in one clause (`not checked: 3 effect actions from
    /// effects not marked replayable ('retry')`); `nil` when everything was. Every place that reports a verdict says
    /// it, so that a `match` never claims more than was checked.
    public var effectsNotChecked: String? {
        guard !effects.notChecked.isEmpty else { return nil }
        let parts = effects.notChecked.map { skipped in
            let subject = skipped.actions > 0 ? Self.count(skipped.actions, "effect action") : "effect runs"
            let names = skipped.effects.isEmpty ? "" : " (\(skipped.effects.map { "'\($0.escapingControls())'" }.joined(separator: ", ")))"
            return "\(subject) \(skipped.reason.phrase)\(names)"
        }
        return "not checked: \(parts.joined(separator: ", "))"
    }

    /// `1 thing` or `n things`.
    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    /// How many parts (a step, or a run of steps in a row) a list of steps names; past them it counts the steps
    /// left (the report's data holds every one).
    static var stepListParts: Int { 12 }

    /// `steps` in order, once each, with every run of three or more in a row as one range (`3, 7-9, 12`), naming
    /// the first ``stepListParts`` parts and counting the steps after them: a session that diverges at thousands of
    /// steps reads in one line.
    static func stepList(_ steps: [Int]) -> String {
        let sorted = Array(Set(steps)).sorted()
        var parts: [String] = []
        var start = 0
        while start < sorted.count, parts.count < stepListParts {
            var end = start
            while end + 1 < sorted.count, sorted[end + 1] == sorted[end] + 1 { end += 1 }
            if end - start >= 2 {
                parts.append("\(sorted[start])-\(sorted[end])")
            } else {
                end = start
                parts.append("\(sorted[start])")
            }
            start = end + 1
        }
        if start < sorted.count { parts.append("and \(count(sorted.count - start, "more step"))") }
        return parts.joined(separator: ", ")
    }

    /// How many gaps the text names one by one; past them it counts the rest (the report's data holds every one).
    static var gapsNamed: Int { 5 }

    /// `n gaps (steps a-b: reason; ...)`, naming the first ``gapsNamed`` and counting the rest with the steps they
    /// miss; gaps in a row for one reason count as one.
    private var gapSummary: String {
        // Gaps one after another for one reason read as one: a recorder writes a long run of kept actions as
        // several lines.
        let gaps = unreplayedGaps.reduce(into: [GapEvent]()) { merged, gap in
            if let last = merged.last, last.lastSequence + 1 == gap.firstSequence, last.reason == gap.reason {
                merged[merged.count - 1].lastSequence = gap.lastSequence
            } else {
                merged.append(gap)
            }
        }
        let described = gaps.prefix(Self.gapsNamed).map { gap in
            let steps = gap.count == 1 ? "step \(gap.firstSequence)" : "steps \(gap.firstSequence)-\(gap.lastSequence)"
            return "\(steps): \(gap.reason.rawValue)"
        }
        let rest = gaps.dropFirst(Self.gapsNamed)
        let more = rest.isEmpty
            ? [] : ["and \(rest.count) more (\(Self.count(rest.reduce(0) { $0 + $1.count }, "step")))"]
        return "\(Self.count(gaps.count, "gap")) (\((described + more).joined(separator: "; ")))"
    }

    /// `n steps replayed from kept actions without recorded states (3-5, 9)`; `nil` when replay ran through no gap.
    private var withoutStates: String? {
        guard !stepsWithoutStates.isEmpty else { return nil }
        let steps = stepsWithoutStates.flatMap { Array($0) }
        return "\(Self.count(steps.count, "step")) replayed from actions the recorder kept without their states "
            + "(\(Self.stepList(steps)))"
    }

    private static func seconds(_ time: Double) -> String {
        let millis = (time * 1000).rounded()
        return "\(Int(millis) / 1000).\(String(Int(millis) % 1000).leftPadded(to: 3)) s"
    }
}

extension Divergence {
    /// `from the app` or `from an effect of step N`.
    var originText: String {
        switch origin {
        case .app: "from the app"
        case .effect(let cause?): "from an effect of step \(cause)"
        case .effect(nil): "from an effect"
        }
    }
}

extension Undecodable.Part {
    /// How a sentence names the part.
    var displayName: String {
        switch self {
        case .initialState: "initial state"
        case .action: "action"
        case .recordedState: "state"
        case .replayedState: "replayed state (encoding)"
        }
    }
}

extension String {
    /// The string with leading zeros up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

extension EffectDivergence {
    /// The divergence as a report shows it: where, which run, and the `-` recorded / `+` rerun lines.
    package func explanationLines(stepCount: Int) -> [RenderedLine] {
        var lines = [
            RenderedLine(
                .text,
                "effect diverged at step \(step) of \(stepCount): \"\(effect.escapingControls())\", started by step \(cause)\(causeText.map { " " + $0 } ?? "")")
        ]
        func say(_ text: String) { lines.append(RenderedLine(.text, "  " + text)) }
        func removed(_ action: EffectAction) {
            lines.append(RenderedLine(.removed, "  - \(ActionText.of(action.action, named: action.name))"))
        }
        func added(_ action: EffectAction) {
            lines.append(RenderedLine(.added, "  + \(ActionText.of(action.action, named: action.name))"))
        }
        switch kind {
        case .actionNotRecorded(let sent):
            say("the effect sent an action the recording does not have (+ sent)")
            added(sent)
        case .actionNotSent(let recorded):
            say("the effect did not send the action recorded at step \(recorded.step.map(String.init) ?? "?") (- recorded)")
            removed(recorded)
        case .actionDiffers(let recorded, let sent, let diff):
            say("the effect sent another action (- recorded at step \(recorded.step.map(String.init) ?? "?"), + sent)")
            removed(recorded)
            added(sent)
            if recorded.name == sent.name { lines += diff.renderedLines().map { $0.prefixed("  ") } }
        case .callNotRecorded(let name, let index):
            say("the effect made call '\(name.escapingControls())' (index \(index) of its run), which the recording does not have")
        case .callNotMade(let name, let index):
            say("the recording has call '\(name.escapingControls())' (index \(index) of its run), which the effect did not make")
        case .callChanged(let index, let recorded, let made):
            say("the effect made call '\(made.escapingControls())' where the recording has '\(recorded.escapingControls())' (index \(index) of its run)")
        case .callInputDiffers(let name, let index, let diff):
            say("the effect gave call '\(name.escapingControls())' (index \(index) of its run) another input (- recorded, + given)")
            lines += diff.renderedLines().map { $0.prefixed("  ") }
        case .callResultDoesNotDecode(let name, let index, let expected, let message):
            say("the recorded result of call '\(name.escapingControls())' (index \(index) of its run) does not decode as \(expected.escapingControls()): \(message.escapingControls())")
        case .cancellationChanged(let name, let index, let recordedCancelled):
            say(
                recordedCancelled
                    ? "call '\(name.escapingControls())' (index \(index) of its run) was cancelled in the recording, and not in the rerun"
                    : "call '\(name.escapingControls())' (index \(index) of its run) was cancelled in the rerun, and not in the recording")
        case .outcomeChanged(let recorded, let replayed):
            say("the run \(replayed.sentencePart) in the rerun; in the recording it \(recorded.sentencePart)")
        }
        return lines
    }
}

extension EffectDivergence {
    /// The action that started the run as text output shows it (``ActionText``), or its name when replay did not
    /// see it start; `nil` when neither is known.
    private var causeText: String? {
        causeAction == nil && causeName.isEmpty ? nil : ActionText.of(causeAction, named: causeName)
    }
}

extension EffectDivergence {
    /// The divergence in one line, for a list of sessions or a table: `step 2 effect 'post score': sent failed
    /// instead of posted`.
    public var summary: String { "step \(step) effect '\(effect.escapingControls())': \(whatDiffers)" }

    /// What the effect did otherwise, in a clause: `sent failed instead of posted`, `did not make call 'score.post'
    /// (index 1)`.
    public var whatDiffers: String {
        func call(_ name: String, _ index: Int) -> String { "call '\(name.escapingControls())' (index \(index))" }
        switch kind {
        case .actionNotRecorded(let sent): return "sent \(sent.name.escapingControls()), which the recording does not have"
        case .actionNotSent(let recorded): return "did not send \(recorded.name.escapingControls())"
        case .actionDiffers(let recorded, let sent, let diff):
            guard recorded.name == sent.name else {
                return "sent \(sent.name.escapingControls()) instead of \(recorded.name.escapingControls())"
            }
            return "sent \(sent.name.escapingControls()) with another payload\(diff.changes.first.map { ", at \($0.path)" } ?? "")"
        case .callNotRecorded(let name, let index): return "made \(call(name, index)), which the recording does not have"
        case .callNotMade(let name, let index): return "did not make \(call(name, index))"
        case .callChanged(let index, let recorded, let made):
            return "made \(call(made, index)) where the recording has '\(recorded.escapingControls())'"
        case .callInputDiffers(let name, let index, _): return "gave \(call(name, index)) another input"
        case .callResultDoesNotDecode(let name, let index, let expected, _):
            return "the recorded result of \(call(name, index)) does not decode as \(expected.escapingControls())"
        case .cancellationChanged(let name, let index, let recordedCancelled):
            return "\(call(name, index)) was cancelled in the \(recordedCancelled ? "recording, not the rerun" : "rerun, not the recording")"
        case .outcomeChanged(let recorded, let replayed): return "\(replayed.sentencePart); in the recording it \(recorded.sentencePart)"
        }
    }
}

extension EffectRunOutcome {
    /// How a sentence says it: `finished`, `was cancelled`, `was still running at the end`.
    var sentencePart: String {
        switch self {
        case .finished: "finished"
        case .cancelled: "was cancelled"
        case .runningAtEnd: "was still running at the end"
        }
    }
}
