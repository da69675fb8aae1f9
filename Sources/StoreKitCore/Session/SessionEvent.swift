/// One line of a session file.
public enum SessionEvent: Sendable, Hashable {
    /// The header, always the first line.
    case header(SessionHeader)
    /// An applied action with the state after it.
    case action(ActionEvent)
    /// Actions that were dropped.
    case gap(GapEvent)
    /// The end of the session.
    case end(EndEvent)
    /// An input an effect run took through its context (format 2).
    case call(EffectCallEvent)
    /// The end of an effect run that took an input or sent an action (format 2).
    case effectEnd(EffectEndEvent)
    /// A note the app wrote between actions (format 3); replay skips it.
    case note(NoteEvent)

    /// The line's `kind` as written in the file.
    public var kind: Kind {
        switch self {
        case .header: .session
        case .action: .action
        case .gap: .gap
        case .end: .end
        case .call: .call
        case .effectEnd: .effectEnd
        case .note: .note
        }
    }

    /// The values of a line's `kind` field.
    public enum Kind: String, Sendable, CaseIterable {
        /// The header line.
        case session
        /// An action line.
        case action
        /// A gap line.
        case gap
        /// The end line.
        case end
        /// An effect's call line.
        case call
        /// An effect run's end line.
        case effectEnd
        /// A note line.
        case note
    }
}
