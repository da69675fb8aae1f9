import StoreKitCore

/// The session as one self-contained HTML page: a timeline of its actions, the state after each step as a
/// collapsible tree, what each step changed, search and filters, and, with a replay report, the divergence(s),
/// gaps and schema drift marked on the timeline and linked from the top.
///
/// The top keeps a few lines' height whatever the session holds: a mark for the first divergence (state and
/// effect), at most a few for gaps and drift, and a divergence bar that walks every diverging step (previous and
/// next, the keys `p` and `n`) and counts them by path, so that previous and next can walk one path's steps. The
/// timeline's "changed" column shows the first changed path's leaf and nearest named parent, every whole path in
/// its title.
///
/// The page fetches nothing: its style and script are inline, it names no font, image or script elsewhere. The
/// session is embedded once, as JSON data (see ``HTMLReportData``): the initial state, and per step the action, the
/// changes as ``StateDiff`` paths describe them (`todos[id: 3].isComplete`) and a JSON Patch from the state before.
/// The page's script builds the timeline's rows in chunks after the first paint, and a step's state tree and diff
/// only when the step is opened, so that a session of 10,000 actions loads quickly (docs/performance.md).
///
/// Every action's row carries `data-step="N"` (its sequence number); a diverging step's row also carries
/// `data-diverged`, a gap's row `data-gap`, a drifted step's `data-drift`; the first divergence's mark is
/// `a#mark-divergence-N` (`a#mark-effect-divergence-N` for an effect's). The page reads `#search=TEXT`,
/// `#origin=app|effect` and `#step=N` from its URL fragment on load (joined with `&`), so scripts can open it
/// filtered or at a step.
///
/// ```swift
/// let html = HTMLReport.render(session: session, report: report, source: "todos.jsonl")
/// ```
public enum HTMLReport {
    /// One self-contained HTML document (no network): the session's timeline, states, per-step diffs; with a
    /// replay report, its divergence(s), gaps and drift marked and linked from the top.
    /// - Parameters:
    ///   - session: The recorded session, read in full.
    ///   - report: What replaying it found; `nil` renders the recording alone, and the page says it was not replayed.
    ///   - source: How the page names the session, usually its path.
    /// - Returns: The page's text.
    public static func render(session: Session, report: ReplayReport?, source: String) -> String {
        render(session: session, report: report, drift: nil, note: nil, source: source)
    }

    /// ``render(session:report:source:)`` with the schema drift the replay host found and a note for the page's top.
    /// - Parameters:
    ///   - session: The recorded session, read in full.
    ///   - report: What replaying it found; `nil` renders the recording alone.
    ///   - drift: The recorded values the current types no longer decode, marked at their first step; `nil` or
    ///     empty when none (or when not checked).
    ///   - note: A sentence shown at the top, such as why the session was not replayed; `nil` for none.
    ///   - source: How the page names the session, usually its path.
    /// - Returns: The page's text.
    public static func render(
        session: Session, report: ReplayReport?, drift: SchemaDrift?, note: String?, source: String
    ) -> String {
        let data = HTMLReportData(session: session, report: report, drift: drift, note: note, source: source)
        return HTMLReportPage(title: "\(source) — replay report", embeddedData: data.embeddableJSON).text
    }
}
