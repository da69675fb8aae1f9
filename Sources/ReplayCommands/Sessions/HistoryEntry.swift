import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// One thing `history` lists, as data.
enum HistoryEntry {
    /// The session's header, read before any step.
    case header(SessionHeader)
    /// A step that changed the path, with its changes there.
    case step(LoggedAction)
    /// A gap, whose steps may have changed the path unseen.
    case gap(GapEvent)
    /// What the whole session told about the path, after its last line.
    case conclusion(HistoryTally)
}

/// What the session told about the path: how many actions and steps that changed it, and the gaps.
struct HistoryTally {
    /// The actions read.
    var actions = 0
    /// The steps that changed the path.
    var changedSteps = 0
    /// The gaps, in order.
    var gaps: [GapEvent] = []
    /// Whether a recorded state held the path, and the nearest places when none did.
    var presence: PatternPresence
    /// The header and gaps not yet presented, while no state read so far held the path.
    var held: [HistoryEntry] = []
}

/// Writes `history` as text: a headline, each step that changed the path with its changes, gaps, a conclusion.
struct HistoryTextPresenter: StreamPresenter {
    /// Where the lines go.
    var terminal: Terminal
    /// The path pattern followed, as given.
    var pattern: String
    /// How the session is named.
    var session: String

    func present(_ entry: HistoryEntry) {
        switch entry {
        case .header(let header):
            terminal.out("history of \(pattern) in \(session), store \"\(header.storeID.escapingControls())\"")
        case .step(let step):
            terminal.out(StepRendering.line(step.action))
            terminal.out(StepRendering.changes(step.shown, comparedWith: step.comparedWith, full: false))
        case .gap(let gap):
            terminal.out(terminal.yellow(StepRendering.gap(gap, then: "what they did to \(pattern) is unknown")))
        case .conclusion(let tally):
            terminal.out(conclusion(tally))
        }
    }

    /// `3 of 320 steps changed todos[*].title`, or `todos[*].title never changed in 320 steps`, then the steps
    /// gaps lost and those they kept without their states.
    private func conclusion(_ tally: HistoryTally) -> String {
        let actions = "\(tally.actions) recorded step\(tally.actions == 1 ? "" : "s")"
        var text =
            tally.changedSteps == 0
            ? "\(pattern) never changed in \(actions)"
            : "\(tally.changedSteps) of \(actions) changed \(pattern)"
        let lost = tally.gaps.filter { !$0.keepsActions }
        let kept = tally.gaps.filter(\.keepsActions)
        var unseen: [String] = []
        if !lost.isEmpty { unseen.append("steps \(Self.steps(of: lost)) were lost in \(lost.count == 1 ? "a gap" : "gaps")") }
        if !kept.isEmpty { unseen.append("steps \(Self.steps(of: kept)) were kept without their states") }
        if !unseen.isEmpty {
            text += "; " + unseen.joined(separator: " and ") + (unseen.count == 1 ? " and may hide more" : "; they may hide more")
        }
        return text
    }

    /// How many runs of steps ``steps(of:)`` names before it counts the rest.
    private static var rangesNamed: Int { 12 }

    /// `4-5, 797-1781, 1790 and 372 more steps`: the steps `gaps` cover, gaps that follow each other as one, the
    /// first ``rangesNamed`` named.
    private static func steps(of gaps: [GapEvent]) -> String {
        let runs = gaps.reduce(into: [ClosedRange<Int>]()) { runs, gap in
            if let last = runs.last, last.upperBound + 1 == gap.firstSequence {
                runs[runs.count - 1] = last.lowerBound...gap.lastSequence
            } else {
                runs.append(gap.firstSequence...gap.lastSequence)
            }
        }
        let named = runs.prefix(rangesNamed).map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)" }
        let rest = runs.dropFirst(rangesNamed).reduce(0) { $0 + $1.count }
        return named.joined(separator: ", ") + (rest == 0 ? "" : " and \(rest) more step\(rest == 1 ? "" : "s")")
    }
}

/// Writes `history --json`: one document at the end, with the steps that changed the path and the gaps.
final class HistoryJSONPresenter: StreamPresenter {
    private let terminal: Terminal
    private let pattern: String
    private var steps: [JSONValue] = []

    /// A presenter writing to `terminal` the history of `pattern`.
    init(terminal: Terminal, pattern: String) {
        self.terminal = terminal
        self.pattern = pattern
    }

    func present(_ entry: HistoryEntry) {
        switch entry {
        case .header, .gap:
            return
        case .step(let step):
            let action = step.action
            var fields: [String: JSONValue] = [
                "step": .integer(Int64(action.sequence)), "time": .double(action.time), "name": .string(action.name),
                "origin": .string(StepRendering.origin(of: action)), "changes": step.shown.jsonValue,
            ]
            if let comparedWith = step.comparedWith { fields["comparedWithStep"] = .integer(Int64(comparedWith)) }
            steps.append(.object(fields))
        case .conclusion(let tally):
            terminal.out(
                JSONValue.object([
                    "path": .string(pattern), "actions": .integer(Int64(tally.actions)),
                    "changedSteps": .integer(Int64(tally.changedSteps)), "steps": .array(steps),
                    "gaps": .array(tally.gaps.map { SessionEvent.gap($0).jsonValue }),
                ]).prettyString())
        }
    }

}
