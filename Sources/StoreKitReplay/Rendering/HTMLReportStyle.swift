/// The HTML report's style sheet, inlined in the page: system fonts only, nothing fetched.
enum HTMLReportStyle {
    /// The CSS.
    static let css = """
        :root { --fg: #1d2330; --muted: #677085; --line: #dde1ea; --bg: #ffffff; --sel: #e8f0fe;
          --bad: #b42318; --bad-bg: #fde8e6; --warn: #8a5a00; --warn-bg: #fff4d6; --ok: #157347;
          --add: #e6f4ea; --del: #fce8e6; --mono: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg);
          background: var(--bg); display: flex; flex-direction: column; height: 100vh; }
        header { flex: none; padding: 10px 16px; border-bottom: 1px solid var(--line); }
        h1 { font-size: 18px; margin: 0 0 4px; }
        h2 { font-size: 15px; margin: 14px 0 6px; }
        #facts, .hint { color: var(--muted); margin: 0; }
        #note { margin: 6px 0 0; padding: 6px 10px; background: var(--warn-bg); color: var(--warn); border-radius: 4px;
          max-height: 4.5em; overflow: auto; }
        #marks { display: flex; flex-wrap: wrap; gap: 6px; margin-top: 8px; max-height: 5.4em; overflow: auto; }
        #marks a, #marks span { padding: 3px 8px; border-radius: 4px; text-decoration: none; font-size: 13px;
          max-width: 100%; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
        #divergences { display: flex; gap: 8px; align-items: center; margin-top: 8px; font-size: 13px; }
        #divergences[hidden] { display: none; }
        #divergences button { font: inherit; padding: 2px 8px; }
        #divergence-position { color: var(--bad); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; min-width: 0; }
        #divergence-paths { position: relative; flex: none; }
        #divergence-paths summary { cursor: pointer; color: var(--muted); }
        #divergence-paths ol { position: absolute; z-index: 10; top: 100%; left: 0; margin: 4px 0 0; padding: 4px;
          list-style: none; background: var(--bg); border: 1px solid var(--line); border-radius: 4px;
          box-shadow: 0 4px 16px rgba(0, 0, 0, 0.15); max-height: 60vh; overflow: auto; width: max-content; max-width: 70vw; }
        #divergence-paths li { display: flex; gap: 8px; align-items: baseline; }
        #divergence-paths .count { min-width: 4em; text-align: right; font-variant-numeric: tabular-nums; }
        #divergence-paths li button { font-family: var(--mono); font-size: 12px; background: none; border: none;
          text-align: left; cursor: pointer; padding: 2px 4px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        #divergence-paths li button:hover { background: var(--sel); }
        .mark-diverged { background: var(--bad-bg); color: var(--bad); font-weight: 600; }
        .mark-gap, .mark-drift { background: var(--warn-bg); color: var(--warn); }
        .mark-match { background: var(--add); color: var(--ok); }
        #toolbar { display: flex; gap: 8px; align-items: center; padding: 8px 16px; border-bottom: 1px solid var(--line); }
        #search { flex: 0 1 360px; padding: 4px 8px; font: inherit; }
        #origin { font: inherit; padding: 3px; }
        #shown { color: var(--muted); }
        main { flex: 1; display: grid; grid-template-columns: minmax(420px, 1fr) minmax(360px, 1fr); min-height: 0; }
        #timeline-pane { overflow: auto; border-right: 1px solid var(--line); }
        #detail { overflow: auto; padding: 8px 16px 24px; }
        table { border-collapse: collapse; width: 100%; }
        #timeline { table-layout: fixed; }
        #timeline th:nth-child(1) { width: 52px; } #timeline th:nth-child(2) { width: 76px; }
        #timeline th:nth-child(4) { width: 84px; } #timeline th:nth-child(5) { width: 104px; }
        #timeline th:nth-child(6) { width: 30%; }
        th { position: sticky; top: 0; background: #f6f7f9; text-align: left; font-weight: 600; color: var(--muted);
          font-size: 12px; padding: 4px 8px; border-bottom: 1px solid var(--line); }
        td { padding: 3px 8px; border-bottom: 1px solid #f0f2f6; white-space: nowrap; overflow: hidden;
          text-overflow: ellipsis; max-width: 320px; }
        tr[data-step] { cursor: pointer; }
        tr[data-step]:hover { background: #f6f8fc; }
        tr.selected { background: var(--sel) !important; }
        tr[data-diverged] { background: var(--bad-bg); }
        tr[data-diverged] td:first-child { border-left: 4px solid var(--bad); font-weight: 700; color: var(--bad); }
        tr[data-drift] td:first-child { border-left: 4px solid var(--warn); }
        tr[data-gap] td { background: var(--warn-bg); color: var(--warn); font-style: italic; }
        .num { text-align: right; font-variant-numeric: tabular-nums; color: var(--muted); }
        .name { font-family: var(--mono); font-size: 13px; }
        .changed { font-family: var(--mono); font-size: 12px; color: var(--muted); }
        /* A path too long for its column loses its start, not its leaf: the cell runs right to left, the path in it
           left to right. */
        td.changed { direction: rtl; text-align: left; }
        td.changed > span { direction: ltr; unicode-bidi: isolate; }
        .badge { font-size: 11px; padding: 0 5px; border-radius: 3px; background: #eef0f4; color: var(--muted); }
        .badge.effect { background: #efe7fb; color: #5b3a99; }
        .badge.note { background: #fdf3dc; color: #7a5a00; }
        tr.effect-line td { color: var(--muted); font-size: 12px; }
        pre { font-family: var(--mono); font-size: 12px; background: #f7f8fa; padding: 8px; border-radius: 4px;
          overflow: auto; margin: 4px 0; }
        .changes { list-style: none; padding: 0; margin: 4px 0; font-family: var(--mono); font-size: 12px; }
        .changes li { padding: 2px 6px; border-radius: 3px; margin: 1px 0; background: #f7f8fa; }
        .changes .k-added { background: var(--add); }
        .changes .k-removed { background: var(--del); }
        .dump .del { background: var(--del); display: block; }
        .dump .add { background: var(--add); display: block; }
        .divergence { border: 2px solid var(--bad); border-radius: 6px; padding: 4px 12px 8px; margin: 8px 0; }
        .divergence h2 { color: var(--bad); }
        .tree { font-family: var(--mono); font-size: 12px; }
        .tree details { margin-left: 14px; }
        .tree > details { margin-left: 0; }
        .tree summary { cursor: pointer; }
        .tree .leaf { margin-left: 28px; white-space: pre-wrap; word-break: break-all; }
        .key { color: #4b3fa8; }
        .v-string { color: #0b6b3a; } .v-number { color: #1750b0; } .v-bool, .v-null { color: #9a3412; }
        .count { color: var(--muted); }
        """
}
