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
        var lines = [
            "### replay-cli check: \(rows.allSatisfy(\.passed) ? "passed" : "failed")", "", counts, "",
            "| | Session | Verdict | Step | Path | Artifacts |",
            "| --- | --- | --- | --- | --- | --- |",
        ]
        let code = MarkdownTableCell.code
        for row in rows {
            let step: [String] = [row.step.map(String.init), row.action.map(code)].compactMap { $0 }.filter { !$0.isEmpty }
            let artifacts: [String] = (row.artifacts + row.artifactProblems).map(code)
            let cells: [String] = [
                row.passed ? "✅" : "❌", code(row.session), row.verdict, step.joined(separator: " "), row.path.map(code) ?? "",
                artifacts.joined(separator: "<br>"),
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
