import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// What each action of a session read in order changed, for the commands that show it (`log --diff`, `history`):
/// it keeps only the state before the next action, and the step of that state when a gap came between. The
/// header's type notes make dates, durations, keyed pairs and elements identified by another member than `id`
/// read as `diff` shows them.
struct ActionChanges {
    private var previous: JSONValue = .null
    private var typeNotes = EncodedTypeNotes()
    private var previousStep = 0
    private var gapSincePrevious = false

    /// Starts from the session's initial state, reading its values by the header's type notes.
    mutating func start(_ header: SessionHeader) {
        previous = header.initialState
        typeNotes = header.typeNotes
    }

    /// Notes a gap: the next action is compared with the state before it.
    mutating func noteGap() {
        gapSincePrevious = true
    }

    /// What `action` changed, showing only the changes under `selection` when given (`nil` when it changed nothing
    /// there); the next action is compared with the state after `action`.
    mutating func changes(of action: ActionEvent, under selection: ChangesUnderPattern?) -> LoggedAction? {
        defer { skip(action) }
        if let selection, !selection.mayHaveChanged(from: previous, to: action.state) { return nil }
        let whole = StateDiff(from: previous, to: action.state, typeNotes: typeNotes)
        var shown = whole
        if let selection {
            let selected = selection.select(from: whole)
            guard !selected.isEmpty else { return nil }
            shown = StateDiff(old: whole.old, new: whole.new, changes: selected, typeNotes: whole.typeNotes)
        }
        return LoggedAction(
            action: action, changeCount: whole.changes.count, shown: shown,
            comparedWith: gapSincePrevious ? previousStep : nil)
    }

    /// Moves past `action` without looking at what it changed.
    mutating func skip(_ action: ActionEvent) {
        previous = action.state
        previousStep = action.sequence
        gapSincePrevious = false
    }
}
