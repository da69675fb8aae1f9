/// The HTML document around the report's data: head with the inline style, an empty body skeleton that the inline
/// script fills from the embedded data.
struct HTMLReportPage {
    /// The document's title (escaped here).
    let title: String
    /// The data, as JSON text safe inside a `<script>` element (see ``HTMLReportData/embeddableJSON``).
    let embeddedData: String

    /// The whole document.
    var text: String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(Self.escaped(title))</title>
        <style>
        \(HTMLReportStyle.css)
        </style>
        </head>
        <body>
        <header id="summary"><h1 id="title"></h1><p id="facts"></p><p id="note" hidden></p><nav id="marks"></nav>
        <div id="divergences" hidden><button id="previous-divergence" type="button" title="previous diverging step (p)">◀ previous</button><button id="next-divergence" type="button" title="next diverging step (n)">next ▶</button><span id="divergence-position"></span><details id="divergence-paths"><summary></summary><ol id="divergence-path-list"></ol></details></div></header>
        <div id="toolbar">
        <input id="search" type="search" placeholder="Search names, actions, changed paths" autocomplete="off">
        <select id="origin"><option value="">any origin</option><option value="app">from the app</option><option value="effect">from an effect</option></select>
        <span id="shown"></span>
        </div>
        <main>
        <section id="timeline-pane"><table id="timeline"><thead><tr><th>step</th><th>time</th><th>action</th><th>origin</th><th>cause</th><th>changed</th></tr></thead><tbody id="rows"></tbody></table></section>
        <section id="detail"><p class="hint">Select a step to see its action, what it changed and the state after it.</p></section>
        </main>
        <script type="application/json" id="report-data">\(embeddedData)</script>
        <script>
        \(HTMLReportScript.javaScript)
        </script>
        </body>
        </html>

        """
    }

    /// `text` with `&`, `<`, `>` and `"` escaped for HTML.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }
}
