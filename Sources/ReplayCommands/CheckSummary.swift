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
        /// The first path that differs (or does not decode), when known.
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
    var markdown: String {
        var lines = [
            "### replay-cli check: \(rows.allSatisfy(\.passed) ? "passed" : "failed")", "", counts, "",
            "| | Session | Verdict | Step | Path | Artifacts |",
            "| --- | --- | --- | --- | --- | --- |",
        ]
        for row in rows {
            let cells = [
                row.passed ? "✅" : "❌", code(row.session), row.verdict, ([row.step.map(String.init)] + [row.action.map(code)]).compactMap { $0 }.joined(separator: " "),
                row.path.map(code) ?? "", (row.artifacts.map(code) + row.artifactProblems.map(plain)).joined(separator: "<br>"),
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` as plain text inside a table cell: pipes escaped, line breaks as `<br>`.
    private func plain(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: "<br>")
    }

    /// `text` as inline code inside a table cell: pipes escaped, and a backtick run longer than any inside.
    private func code(_ text: String) -> String {
        let escaped = text.replacingOccurrences(of: "|", with: "\\|")
        var fence = "`"
        while escaped.contains(fence) { fence += "`" }
        let padding = escaped.hasPrefix("`") || escaped.hasSuffix("`") ? " " : ""
        return fence + padding + escaped + padding + fence
    }
}
