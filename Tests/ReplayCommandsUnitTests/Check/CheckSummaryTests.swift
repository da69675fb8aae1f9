import Testing

@testable import ReplayCommands

/// Every string from a session stays inside its table cell of the job summary and renders as the text it is.
@Suite struct CheckSummaryTests {
    @Test func sessionTextStaysInItsCellAsCodeWithLineBreaksAndPipesEscaped() {
        // Given rows whose session, action, path, artifacts and problems hold line breaks, pipes, backticks, markup
        let summary = CheckSummary(
            rows: [
                CheckSummary.Row(
                    session: "a|b.jsonl", verdict: "diverged", passed: false, step: 5,
                    action: "x\n### ✅ passed\n![i](https://e/x.png) [l](https://e) <img src=x> `c` | y",
                    path: "todos[id: `a`]", artifacts: ["out/a|b.html"], artifactProblems: ["cannot write 'x\r\n# y'"]),
                CheckSummary.Row(
                    session: "`b`.jsonl", verdict: "error", passed: false, step: 2, action: "", path: " k ", artifacts: [],
                    artifactProblems: ["\u{1B}]8;;https://e\u{7}link\u{1B}]8;;\u{7}", "\u{2028}<br>"]),
                CheckSummary.Row(
                    session: "ok.jsonl", verdict: "match", passed: true, step: nil, action: nil, path: nil, artifacts: [],
                    artifactProblems: []),
            ], counts: "3 sessions: 1 diverged, 1 error, 1 match")

        // Then the document is this text: each string in a code span, in its cell, on its row
        #expect(
            summary.markdown == #"""
                ### replay-cli check: failed

                3 sessions: 1 diverged, 1 error, 1 match

                | | Session | Verdict | Step | Path | Artifacts |
                | --- | --- | --- | --- | --- | --- |
                | ❌ | `a\|b.jsonl` | diverged | 5 ``x\u{A}### ✅ passed\u{A}![i](https://e/x.png) [l](https://e) <img src=x> `c` \| y`` | ``todos[id: `a`]`` | `out/a\|b.html`<br>`cannot write 'x\u{D}\u{A}# y'` |
                | ❌ | `` `b`.jsonl `` | error | 2 | `  k  ` | `\u{1B}]8;;https://e\u{7}link\u{1B}]8;;\u{7}`<br>`\u{2028}<br>` |
                | ✅ | `ok.jsonl` | match |  |  |  |

                """#)
    }
}
