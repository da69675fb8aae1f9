/// The presenter of a command that streams (`log`, `history`): it writes each entry as the command finds it, in one
/// output form, and ends the output when the command is done. The command computes the entries; the presenter
/// only writes them.
protocol StreamPresenter<Entry> {
    /// What the command finds, one at a time.
    associatedtype Entry
    /// Writes `entry` (or keeps it, for a form written whole at the end).
    func present(_ entry: Entry)
    /// Ends the output.
    func finish()
}

extension StreamPresenter {
    /// Nothing to end: a form that writes every entry as it comes.
    func finish() {}
}
