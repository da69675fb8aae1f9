import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// One thing `log` lists, as data: the session's header, an action that passed the filters, an effect's call or
/// end whose cause was listed, a note after a listed action, a gap, the end.
enum LogEntry {
    /// The session's header.
    case header(SessionHeader)
    /// An action listed.
    case action(LoggedAction)
    /// An input an effect run took (a call line).
    case call(EffectCallEvent)
    /// An effect run's end.
    case effectEnd(EffectEndEvent)
    /// A note the app wrote (format 3).
    case note(NoteEvent)
    /// A gap touching the steps listed.
    case gap(GapEvent)
    /// The session's end line.
    case end(EndEvent)
}

/// An action `log` lists, with what it changed.
struct LoggedAction {
    /// The action.
    var action: ActionEvent
    /// How many places of the state it changed.
    var changeCount: Int
    /// The changes to show (those under `--path`, when given).
    var shown: StateDiff
    /// The step of the state it was compared with, when that is from before a gap (0 for the initial state).
    var comparedWith: Int?
}

/// Writes `log`'s entries as text: the headline, a line per action (with `--diff`, its changes under it), gaps in
/// yellow, the end.
struct LogTextPresenter: StreamPresenter {
    /// Where the lines go.
    var terminal: Terminal
    /// `--diff`: the changes under each action.
    var showsChanges: Bool
    /// `--full`: also the `-`/`+` dump around them.
    var full: Bool

    /// The width of the changes column, which an effect's line leaves blank so that its text lines up with the names.
    private static let middleWidth = 11

    func present(_ entry: LogEntry) {
        switch entry {
        case .header(let header):
            terminal.out(StepRendering.headline(of: header))
        case .action(let logged):
            let count = logged.changeCount
            terminal.out(StepRendering.line(logged.action, middle: "\(count) change\(count == 1 ? "" : "s")".rightPadded(Self.middleWidth)))
            if showsChanges && count > 0 {
                terminal.out(StepRendering.changes(logged.shown, comparedWith: logged.comparedWith, full: full))
            }
        case .call(let call):
            terminal.out(StepRendering.effectLine(time: call.time, label: "call", text: call.summary, middle: Self.middleWidth))
        case .effectEnd(let end):
            terminal.out(StepRendering.effectLine(time: end.time, label: "effect end", text: end.summary, middle: Self.middleWidth))
        case .note(let note):
            terminal.out(StepRendering.effectLine(time: note.time, label: "note", text: note.summary, middle: Self.middleWidth))
        case .gap(let gap):
            terminal.out(terminal.yellow(StepRendering.gap(gap)))
        case .end(let end):
            terminal.out("     - end: \(end.reason.rawValue) after \(String(format: "%.3f", end.time)) s, \(end.actions) actions, \(end.dropped) dropped")
        }
    }

}

/// Writes `log --json`'s entries: one JSON array at the end, or with `--follow` one compact JSON object per line
/// as each comes.
final class LogJSONPresenter: StreamPresenter {
    private let terminal: Terminal
    private let showsChanges: Bool
    private let following: Bool
    private var entries: [JSONValue] = []

    /// A presenter writing to `terminal`, with each action's `diff` when `showsChanges`, line by line when `following`.
    init(terminal: Terminal, showsChanges: Bool, following: Bool) {
        self.terminal = terminal
        self.showsChanges = showsChanges
        self.following = following
    }

    func present(_ entry: LogEntry) {
        let value: JSONValue
        switch entry {
        case .header:
            return
        case .action(let logged):
            let action = logged.action
            var fields: [String: JSONValue] = [
                "kind": .string("action"), "step": .integer(Int64(action.sequence)), "time": .double(action.time),
                "name": .string(action.name), "origin": .string(StepRendering.origin(of: action)),
                "changes": .integer(Int64(logged.changeCount)),
            ]
            if let effect = action.effect { fields["effect"] = .string(effect) }
            if showsChanges { fields["diff"] = logged.shown.jsonValue }
            if let comparedWith = logged.comparedWith { fields["comparedWithStep"] = .integer(Int64(comparedWith)) }
            value = .object(fields)
        case .call(let call):
            value = SessionEvent.call(call).jsonValue
        case .effectEnd(let end):
            value = SessionEvent.effectEnd(end).jsonValue
        case .note(let note):
            value = SessionEvent.note(note).jsonValue
        case .gap(let gap):
            value = SessionEvent.gap(gap).jsonValue
        case .end(let end):
            value = SessionEvent.end(end).jsonValue
        }
        if following { terminal.out(String(decoding: value.canonicalBytes(), as: UTF8.self)) } else { entries.append(value) }
    }

    func finish() {
        if !following { terminal.out(JSONValue.array(entries).prettyString()) }
    }
}
