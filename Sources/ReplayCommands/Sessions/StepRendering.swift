import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// How `log` and `history` write a step: its line of fixed-width columns, the changes under it, a gap.
enum StepRendering {
    /// Where the lines under a step's line start: below its time column.
    static let indent = String(repeating: " ", count: 7)

    /// `app`, `effect of 12`, or `effect` when the cause is unknown.
    static func origin(of action: ActionEvent) -> String {
        guard case .effect(let cause) = action.origin else { return "app" }
        return cause.map { "effect of \($0)" } ?? "effect"
    }

    /// `session 5E1F…, store "todos", TodoApp 1.4, started 2026-11-20T10:00:00Z`: the line `log` starts with.
    static func headline(of header: SessionHeader) -> String {
        "session \(header.sessionID.escapingControls()), store \"\(header.storeID.escapingControls())\", "
            + "\(header.app.name.escapingControls()) \(header.app.version.escapingControls()), "
            + "started \(header.startedAt.escapingControls())"
    }

    /// The step, time and origin in columns of fixed width, then `middle` (its own fixed-width column, or
    /// nothing), then the action as Swift writes it (``ActionText``: `path(.element(action: .rehearse(.timerTick),
    /// id: 2))`): it has no fixed width, so it comes last and every line stays aligned as it streams out. Its control
    /// characters are escaped, so that one line of the session stays one line of output.
    static func line(_ action: ActionEvent, middle: String? = nil) -> String {
        let step = String(action.sequence).leftPadded(6)
        let time = String(format: "%9.3fs", action.time)
        let origin = origin(of: action).rightPadded(16)
        return "\(step) \(time)  \(origin) \(middle.map { $0 + "  " } ?? "")\(ActionText.of(action.action, named: action.name))"
    }

    /// An effect's line between the actions: no step, the time, `label` (`call`, `effect end`) in the origin
    /// column, the middle column of `middle` characters left blank, then `text`, which lines up with the actions'
    /// names.
    static func effectLine(time: Double, label: String, text: String, middle: Int) -> String {
        let blank = String(repeating: " ", count: 6)
        return "\(blank) \(String(format: "%9.3fs", time))  \(label.rightPadded(16)) \(String(repeating: " ", count: middle + 2))\(text)"
    }

    /// The changes under a step's line, one summary line each (`todos[id: 3].isComplete  false -> true`), then
    /// with `full` the `-`/`+` dump of them; first, when the state compared with is from before a gap (`earlier`,
    /// the step of that state, 0 for the initial one), a line saying so.
    static func changes(_ diff: StateDiff, comparedWith earlier: Int?, full: Bool) -> [RenderedLine] {
        var lines: [RenderedLine] = []
        if let earlier {
            let since = earlier == 0 ? "the initial state" : "step \(earlier)"
            lines.append(RenderedLine(.text, indent + "(changes since \(since), before the gap)"))
        }
        lines += diff.changes.map { RenderedLine(.text, indent + $0.summary(typeNotes: diff.typeNotes)) }
        if full && !diff.isEmpty {
            lines += diff.renderedLines().map { RenderedLine($0.kind, indent + $0.text) }
        }
        return lines
    }

    /// `     - gap: steps 40-52 lost (bufferFull)`, or `step 4 lost (notEncodable: 'ShowAlert' was not recorded: it
    /// is not Codable)` with the recorder's message (its controls and line breaks escaped: it is the session's
    /// text), and `then` after it when given.
    static func gap(_ gap: GapEvent, then note: String? = nil) -> String {
        let steps =
            gap.firstSequence == gap.lastSequence
            ? "step \(gap.firstSequence)" : "steps \(gap.firstSequence)-\(gap.lastSequence)"
        let why = gap.reason.rawValue + (gap.message.map { ": " + $0.escapingControls() } ?? "")
        let fate = gap.keepsActions ? "kept without their states" : "lost"
        return "     - gap: \(steps) \(fate) (\(why))" + (note.map { ": " + $0 } ?? "")
    }
}

extension String {
    /// The string right-aligned in `width` columns.
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }

    /// The string left-aligned in `width` columns; a longer string is kept whole, never cut.
    func rightPadded(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
