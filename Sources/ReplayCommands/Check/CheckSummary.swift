/// `check --summary`: the results as Markdown for a CI job summary (GitHub's `$GITHUB_STEP_SUMMARY`), one table
/// row per session with its verdict, the diverging step and path, and the artifacts kept for it.
struct CheckSummary {
    /// One session's row.
    struct Row {
        /// The session file.
        var session: String
        /// The verdict's name (`match`, `diverged`, `error` ...).
        var verdict: String
        /// Whether the session passed.
        var passed: Bool
        /// The step where it failed, when known.
        var step: Int?
        /// The action at that step, when known.
        var action: String?
        /// Where or what differs, when known: the first path that differs (or does not decode), what an effect did
        /// otherwise, or for a session that passed what of its effects was not checked.
        var path: String?
        /// The artifacts kept for it.
        var artifacts: [String]
        /// Why an artifact could not be kept.
        var artifactProblems: [String]
    }

    /// The rows, in the order checked.
    var rows: [Row]
    /// The counts line, such as `3 sessions: 1 diverged, 2 match`.
    var counts: String

    /// The Markdown document.
    ///
    /// Every string from a session (its path, the action, the state path, the artifacts and why one was not kept)
    /// is written through ``MarkdownTableCell/code(_:)``, so nothing in it leaves its cell or renders as markup.
    var markdown: String {
        Self.document(passed: rows.allSatisfy(\.passed), counts: counts, rowLines: rows.map(Self.line))
    }

    /// The table's header: its column names and the line under them.
    static let tableHeader = ["| | Session | Verdict | Step | Path | Artifacts |", "| --- | --- | --- | --- | --- | --- |"]

    /// A summary document: its heading, the counts line and the table of `rowLines` (rows already rendered).
    static func document(passed: Bool, counts: String, rowLines: [String]) -> String {
        let lines = ["### \(title): \(passed ? "passed" : "failed")", "", counts, ""] + tableHeader + rowLines
        return lines.joined(separator: "\n") + "\n"
    }

    /// The heading's text before its verdict.
    static let title = "replay-cli check"

    /// One row of the table.
    private static func line(_ row: Row) -> String {
        let code = MarkdownTableCell.code
        let step: [String] = [row.step.map(String.init), row.action.map(code)].compactMap { $0 }.filter { !$0.isEmpty }
        let artifacts: [String] = (row.artifacts + row.artifactProblems).map(code)
        let cells: [String] = [
            row.passed ? "✅" : "❌", code(row.session), row.verdict, step.joined(separator: " "), row.path.map(code) ?? "",
            artifacts.joined(separator: "<br>"),
        ]
        return "| " + cells.joined(separator: " | ") + " |"
    }
}
