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
    /// gaps lost.
    private func conclusion(_ tally: HistoryTally) -> String {
        let actions = "\(tally.actions) recorded step\(tally.actions == 1 ? "" : "s")"
        var text =
            tally.changedSteps == 0
            ? "\(pattern) never changed in \(actions)"
            : "\(tally.changedSteps) of \(actions) changed \(pattern)"
        if !tally.gaps.isEmpty {
            let lost = tally.gaps.map { "\($0.firstSequence)-\($0.lastSequence)" }.joined(separator: ", ")
            text += "; steps \(lost) were lost in \(tally.gaps.count == 1 ? "a gap" : "gaps") and may hide more"
        }
        return text
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
