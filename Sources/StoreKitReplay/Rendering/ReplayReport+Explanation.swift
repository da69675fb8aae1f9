import StoreKitCore

extension ReplayReport {
    /// The report as a person reads it, like a good test failure: what was replayed, the verdict, and for a
    /// divergence the step, the action and the state diff (`-` recorded, `+` replayed).
    /// - Parameter source: How to name the session, usually its path.
    public func explanation(source: String) -> String {
        var lines = [headline(source: source)]
        switch verdict {
        case .match:
            lines.append("match: all \(stepsMatched) replayed states equal the recorded ones")
        case .diverged(let divergence):
            lines.append("diverged at step \(divergence.step) of \(actionCount)")
            lines.append("  action  \(divergence.actionName) \(divergence.action.canonicalString)    (\(divergence.originText), \(Self.seconds(divergence.time)) in)")
            if !gaps.isEmpty { lines.append("  note    the session also has \(gapSummary)") }
            lines.append("")
            lines.append("  state after step \(divergence.step) (- recorded, + replayed)")
            lines.append(Self.indent(divergence.diff.rendered(), by: "  "))
            lines.append(Self.indent(divergence.diff.summary, by: "  "))
            if divergences.count > 1 {
                lines.append("  \(divergences.count) diverging steps: \(divergences.map { String($0.step) }.joined(separator: ", "))")
            }
        case .incomplete:
            lines.append("incomplete: the session has \(gapSummary); the \(stepsMatched) steps that could be checked match")
        case .undecodable(let failure):
            let at = failure.path.isEmpty ? "" : " at \(failure.path)"
            let step = failure.step == 0 ? "the initial state" : "step \(failure.step) (\(failure.actionName ?? "?"))"
            lines.append("undecodable: \(step): the recorded \(failure.part.displayName) no longer decodes\(at): \(failure.message)")
        case .unknownStore(let id, let known):
            lines.append("unknown store '\(id)': this replay knows \(known.isEmpty ? "no stores" : known.joined(separator: ", "))")
        }
        return lines.joined(separator: "\n")
    }

    private func headline(source: String) -> String {
        let app = header.app
        var recordedBy = app.name
        if !app.version.isEmpty { recordedBy += " \(app.version)" }
        if !app.build.isEmpty { recordedBy += " (build \(app.build))" }
        let day = header.startedAt.prefix(10)
        // Replay stops at a value that no longer decodes or a store it does not know, before the rest is read.
        let readToTheEnd: Bool
        switch verdict {
        case .undecodable, .unknownStore: readToTheEnd = false
        case .match, .diverged, .incomplete: readToTheEnd = true
        }
        guard readToTheEnd else {
            return "\(source): store \"\(header.storeID)\", recorded by \(recordedBy) on \(day); replay stopped before the end"
        }
        let unfinished = end == nil ? ", no end line (cut off)" : ""
        return "\(source): store \"\(header.storeID)\", \(actionCount) actions, recorded by \(recordedBy) on \(day)\(unfinished)"
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

    private static func indent(_ text: String, by prefix: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { prefix + $0 }.joined(separator: "\n")
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
