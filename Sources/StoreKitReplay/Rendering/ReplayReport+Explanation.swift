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
            say("match: all \(stepsMatched) replayed states equal the recorded ones")
        case .diverged(let divergence):
            say("diverged at step \(divergence.step) of \(actionCount)")
            say("  action  \(divergence.actionName.escapingControls()) \(divergence.action.canonicalString)    (\(divergence.originText), \(Self.seconds(divergence.time)) in)")
            lines += divergence.precedingActions.map {
                RenderedLine(.context, "  before  \($0.step) \($0.name.escapingControls()) \($0.action.canonicalString)")
            }
            if !gaps.isEmpty { say("  note    the session also has \(gapSummary)") }
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
                say("  \(divergences.count) diverging steps: \(divergences.map { String($0.step) }.joined(separator: ", "))")
            }
        case .incomplete:
            say("incomplete: the session has \(gapSummary); the \(stepsMatched) steps that could be checked match")
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
        case .match, .diverged, .incomplete: readToTheEnd = true
        }
        guard readToTheEnd else {
            return "\(source): store \"\(storeID)\", recorded by \(recordedBy) on \(day); replay stopped before the end"
        }
        let unfinished = end == nil ? ", no end line (cut off)" : ""
        return "\(source): store \"\(storeID)\", \(actionCount) actions, recorded by \(recordedBy) on \(day)\(unfinished)"
    }

    private var gapSummary: String {
        let described = gaps.map { gap in
            let steps = gap.count == 1 ? "step \(gap.firstSequence)" : "steps \(gap.firstSequence)-\(gap.lastSequence)"
            return "\(steps): \(gap.reason.rawValue)"
        }
        return "\(gaps.count) gap\(gaps.count == 1 ? "" : "s") (\(described.joined(separator: "; ")))"
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
