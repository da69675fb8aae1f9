import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import StoreKitTestFixtures
import Testing

@Suite struct HTMLReportTests {
    /// The JSON the page embeds for its script, read back.
    private func embeddedData(_ html: String) throws -> JSONValue {
        let opening = #"<script type="application/json" id="report-data">"#
        let start = try #require(html.range(of: opening)).upperBound
        let end = try #require(html.range(of: "</script>", range: start..<html.endIndex)).lowerBound
        return try JSONValue(parsing: String(html[start..<end]))
    }

    @Test func embedsOneStepPerActionWithItsNumberOriginAndChanges() throws {
        // Given a recorded tally session
        let session = try recordTally([.add(1), .label("a"), .add(2)])

        // When it is rendered without a replay
        let html = HTMLReport.render(session: session, report: nil, source: "tally.jsonl")

        // Then the data holds one step per action, numbered as recorded, with what each changed as diff paths
        let data = try embeddedData(html)
        let steps = try #require(data["steps"]?.arrayValue)
        #expect(steps.map { $0["s"]?.integerValue } == [1, 2, 3])
        #expect(steps.map { $0["o"]?.stringValue } == ["app", "app", "app"])
        #expect(steps[0]["d"]?.arrayValue?.compactMap { $0["path"]?.stringValue } == ["items[0]", "total"])
        #expect(steps[1]["d"]?.arrayValue?.compactMap { $0["path"]?.stringValue } == ["labels[0]"])
        #expect(data["replay"] == .null)
        // and the page's script gives each action's row its step number
        #expect(html.contains("row.dataset.step = step.s"))
    }

    @Test func marksTheDivergenceAndLinksItFromTheTop() throws {
        // Given a session replayed through a reducer with a regression at `add(3)`
        let session = try recordTally([.add(1), .add(3), .add(4)])
        let report = ReplayEngine(stores: [Tally.broken]).replay(session)

        // When it is rendered with the report
        let html = HTMLReport.render(session: session, report: report, source: "tally.jsonl")

        // Then the data names the diverging step with its changes, recorded -> replayed
        let replay = try #require(try embeddedData(html)["replay"])
        #expect(replay["verdict"]?.stringValue == "diverged")
        let divergence = try #require(replay["divergences"]?.arrayValue?.first)
        #expect(divergence["step"]?.integerValue == 2)
        #expect(divergence["changes"]?.arrayValue?.compactMap { $0["path"]?.stringValue } == ["items[1]"])
        // and the script marks that row and links it from the top
        #expect(html.contains("row.dataset.diverged"))
        #expect(html.contains(#".id = "mark-divergence-" + divergence.step"#))
    }

    @Test func fetchesNothing() throws {
        // Given a session whose action text looks like markup and a URL
        let session = try recordTally([.label("</script><img src=\"https://example.com/x.png\">")])

        // When it is rendered
        let html = HTMLReport.render(session: session, report: nil, source: "<tally>.jsonl")

        // Then no src or href of the markup, style or script names a network address, the data cannot end its
        // script element early, and the title is escaped
        let data = try #require(html.range(of: #"<script type="application/json" id="report-data">"#))
        let markup = html[..<data.lowerBound] + html[data.upperBound...].drop { $0 != "<" }
        for attribute in ["src=", "href=", "url("] {
            var rest = markup[...]
            while let found = rest.range(of: attribute) {
                let value = rest[found.upperBound...].prefix(12).lowercased()
                #expect(!value.contains("http:") && !value.contains("https:") && !value.contains("//"), "\(attribute)\(value)")
                rest = rest[found.upperBound...]
            }
        }
        #expect(html.components(separatedBy: "</script>").count == 3)
        #expect(html.contains("<title>&lt;tally&gt;.jsonl — replay report</title>"))
        let label = try embeddedData(html)["steps"]?.arrayValue?.first?["a"]?["label"]?["_0"]?.stringValue
        #expect(label == "</script><img src=\"https://example.com/x.png\">")
    }

    @Test func embedsEachActionAsSwiftWritesItAsEscapedText() throws {
        // Given a session whose action's text looks like markup, replayed through a reducer that diverges at it
        let markup = "</script><img src=x onerror=alert(1)>"
        let session = try recordTally([.add(1), .label(markup), .add(3)])
        let report = ReplayEngine(stores: [Tally.broken]).replay(session)

        // When it is rendered
        let html = HTMLReport.render(session: session, report: report, source: "tally.jsonl")

        // Then each step and the divergence hold the action as Swift writes it, the data holding no `<` (so the
        // markup cannot end its script element) and reading back whole
        let opening = try #require(html.range(of: #"<script type="application/json" id="report-data">"#))
        let closing = try #require(html.range(of: "</script>", range: opening.upperBound..<html.endIndex))
        #expect(!html[opening.upperBound..<closing.lowerBound].contains("<"))
        #expect(html.components(separatedBy: "</script>").count == 3)
        let data = try embeddedData(html)
        let swift = try #require(data["steps"]?.arrayValue).map { $0["w"]?.stringValue }
        #expect(swift == ["add(1)", "label(\(markup.debugDescription))", "add(3)"])
        #expect(data["replay"]?["divergences"]?.arrayValue?.first?["w"]?.stringValue == "add(3)")
        // and the script shows it as text, never as markup: in the row, its title and the detail's heading
        #expect(html.contains(#"const name = element("td", "name", step.w);"#))
        #expect(html.contains(#"element("h2", "", "step " + step.s + ": " + step.w)"#))
        #expect(html.contains("if (text !== undefined) node.textContent = text;"))
    }

    @Test func keepsMembersNamedLikeObjectPrototypesProperties() throws {
        // Given a session whose state has members named `__proto__`, `constructor`, `toString` and `hasOwnProperty`,
        // and a step that changes one inside `__proto__`
        let initial = #"{"__proto__":{"polluted":false},"constructor":1,"count":0,"hasOwnProperty":"h","toString":"t"}"#
        let after = #"{"__proto__":{"polluted":true},"constructor":1,"count":1,"hasOwnProperty":"h","toString":"t"}"#
        let ndjson = headerLine.replacingOccurrences(of: #"{"items":[],"labels":[],"ratio":1.0,"total":0}"#, with: initial)
            + "\n" + actionLine(1, action: #"{"add":{"_0":1}}"#, state: after) + "\n"
        let session = try Session(ndjson: Array(ndjson.utf8))

        // When it is rendered
        let html = HTMLReport.render(session: session, report: nil, source: "proto.jsonl")

        // Then the data holds every member, and the step's patch reaches into `__proto__` by its name
        let data = try embeddedData(html)
        #expect(data["initialState"]?.objectValue.map { $0.keys.sorted() } == ["__proto__", "constructor", "count", "hasOwnProperty", "toString"])
        let patch = try #require(data["steps"]?.arrayValue?.first?["p"]?.arrayValue)
        #expect(patch.compactMap { $0["path"]?.stringValue }.sorted() == ["/__proto__/polluted", "/count"])
        // and the script that applies it copies objects into prototype-less ones, reads a member only when the
        // object has it, and nowhere builds a map on a plain object, whose `__proto__` is its prototype
        #expect(html.contains("Object.assign(Object.create(null), value)"))
        #expect(html.contains("Object.prototype.hasOwnProperty.call(object, key)"))
        #expect(!html.contains("Object.assign({}"))
    }
}

extension HTMLReportTests {
    @Test func embedsTheGapsWhereTheyFall() throws {
        // Given a session whose steps 2 and 3 were dropped
        let recorded = try recordTally([.add(1), .add(2)])
        guard case .action(let first) = recorded.events[0], case .action(var last) = recorded.events[1] else {
            Issue.record("expected two actions")
            return
        }
        last.sequence = 4
        let gap = GapEvent(firstSequence: 2, lastSequence: 3, reason: .bufferFull)
        let session = Session(header: recorded.header, events: [.action(first), .gap(gap), .action(last)])

        // When it is rendered
        let html = HTMLReport.render(session: session, report: nil, source: "tally.jsonl")

        // Then the data holds the gap with its steps and reason, and the script gives it a row of its own
        let data = try embeddedData(html)
        let gaps = try #require(data["gaps"]?.arrayValue)
        #expect(gaps.count == 1)
        #expect(gaps.first?["first"]?.integerValue == 2)
        #expect(gaps.first?["last"]?.integerValue == 3)
        #expect(gaps.first?["reason"]?.stringValue == GapEvent.Reason.bufferFull.rawValue)
        #expect(data["steps"]?.arrayValue?.map { $0["s"]?.integerValue } == [1, 4])
        #expect(html.contains("row.dataset.gap = gap.first"))
        #expect(data["session"]?["kept"]?.integerValue == 0)
    }

    @Test func countsTheActionsAGapKeptBesideTheActionLines() throws {
        // Given a session whose gap kept its two actions without their states
        let recorded = try recordTally([.add(1), .add(2), .add(3), .add(4)])
        let actions = recorded.events.compactMap { event -> ActionEvent? in
            if case .action(let action) = event { return action } else { return nil }
        }
        let kept = actions[1...2].map { action in
            var kept = action
            kept.state = .null
            return kept
        }
        let gap = GapEvent(firstSequence: 2, lastSequence: 3, reason: .bufferFull, actions: Array(kept))
        let session = Session(header: recorded.header, events: [.action(actions[0]), .gap(gap), .action(actions[3])])

        // When it is rendered
        let html = HTMLReport.render(session: session, report: nil, source: "tally.jsonl")

        // Then the data counts the two action lines and the two kept actions apart, and the top names both
        let data = try embeddedData(html)
        #expect(data["session"]?["actions"]?.integerValue == 2)
        #expect(data["session"]?["kept"]?.integerValue == 2)
        #expect(html.contains(#"" and " + data.session.kept + " kept without their states""#))
    }
}

/// The page at scale: many diverging steps.
extension HTMLReportTests {
    /// A tally session of `count` adds of 3, each of which the broken reducer replays without its item, replayed
    /// to the end (`--all`).
    private func everyStepDiverging(_ count: Int) throws -> (Session, ReplayReport) {
        let session = try recordTally(Array(repeating: .add(3), count: count))
        let engine = ReplayEngine(stores: [Tally.broken], options: .init(findAllDivergences: true))
        return (session, engine.replay(session))
    }

    /// The page's markup: everything but the embedded data.
    private func markup(_ html: String) throws -> String {
        let opening = try #require(html.range(of: #"<script type="application/json" id="report-data">"#))
        let closing = try #require(html.range(of: "</script>", range: opening.upperBound..<html.endIndex))
        return String(html[..<opening.upperBound] + html[closing.lowerBound...])
    }

    @Test func countsTheDivergingStepsByPathInOneList() throws {
        // Given 300 steps that all diverge, each at another element of `items`
        let (session, report) = try everyStepDiverging(300)
        #expect(report.divergences.count == 300)

        // When the page is rendered
        let html = HTMLReport.render(session: session, report: report, source: "tally.jsonl")

        // Then the data counts them in one list, by path with subscripts as `*`, with every diverging step in order
        let byPath = try #require(try embeddedData(html)["replay"]?["byPath"]?.arrayValue)
        #expect(byPath.count == 1)
        #expect(byPath.first?["path"]?.stringValue == "items[*]")
        #expect(byPath.first?["steps"]?.arrayValue?.compactMap(\.integerValue) == Array(1...300).map(Int64.init))
    }

    @Test func keepsTheMarkupTheSameSizeWhateverTheNumberOfDivergences() throws {
        // Given sessions with 3 and 300 diverging steps
        let (few, fewReport) = try everyStepDiverging(3)
        let (many, manyReport) = try everyStepDiverging(300)

        // When both are rendered
        let fewPage = try markup(HTMLReport.render(session: few, report: fewReport, source: "tally.jsonl"))
        let manyPage = try markup(HTMLReport.render(session: many, report: manyReport, source: "tally.jsonl"))

        // Then the markup is the same, with one divergence bar (previous, next, counts by path) at the top
        #expect(fewPage == manyPage)
        for id in ["divergences", "previous-divergence", "next-divergence", "divergence-paths"] {
            #expect(manyPage.components(separatedBy: #"id="\#(id)""#).count == 2, "\(id)")
        }
        let header = try #require(manyPage.range(of: "</header>"))
        #expect(manyPage[..<header.lowerBound].contains(#"<div id="divergences" hidden>"#))
        // and the script marks the first divergence only, leaving the rest to the bar
        #expect(manyPage.contains("const divergence = replay.divergences[0];"))
    }

    @Test func keepsEachReplayedStateAsAPatchFromTheRecordedOne() throws {
        // Given 20 diverging steps
        let (session, report) = try everyStepDiverging(20)

        // When the page is rendered
        let divergences = try #require(
            try embeddedData(HTMLReport.render(session: session, report: report, source: "tally.jsonl"))["replay"]?[
                "divergences"]?.arrayValue)

        // Then no divergence holds a whole state, and each patch turns the recorded state into the replayed one
        #expect(divergences.count == 20)
        for (divergence, expected) in zip(divergences, report.divergences) {
            #expect(divergence["replayed"] == nil)
            let operations = try #require(divergence["patch"])
            let patch = try JSONPatch(jsonValue: operations, path: "patch")
            #expect(try patch.apply(to: session.actions[expected.step - 1].state) == expected.replayed)
        }
    }

    @Test func labelsTheChangedColumnWithTheLeafAndItsNamedParentAndKeepsEveryPathForItsTitle() throws {
        // Given a step that completes a todo identified by a UUID, inside a case's payload
        let id = "3F2504E0-4F89-11D3-9A0C-0305E82C3301"
        let before = #"{"screen":{"list":{"_0":{"todos":[{"id":"\#(id)","isComplete":false}]}}}}"#
        let after = before.replacingOccurrences(of: "false", with: "true")
        let ndjson = headerLine.replacingOccurrences(of: #"{"items":[],"labels":[],"ratio":1.0,"total":0}"#, with: before)
            + "\n" + actionLine(1, action: #"{"toggle":{}}"#, state: after) + "\n"

        // When it is rendered
        let html = HTMLReport.render(session: try Session(ndjson: Array(ndjson.utf8)), report: nil, source: "todos.jsonl")

        // Then the step's label is the leaf and its named parent, and the whole path stays in its changes
        let step = try #require(try embeddedData(html)["steps"]?.arrayValue?.first)
        #expect(step["l"]?.stringValue == "…todos[id: 3F2504E0…].isComplete")
        #expect(step["d"]?.arrayValue?.first?["path"]?.stringValue == "screen.list.todos[id: \(id)].isComplete")
        // and the script shows the label in the column, every whole path in its title
        #expect(html.contains("step.l + (step.d.length === 1"))
        #expect(html.contains(#"changed.title = paths.join("\n")"#))
    }

    @Test func embedsEverySessionStringAsDataAtAnySize() throws {
        // Given 300 steps that each change a state member whose name, and its parent's, look like markup
        let outer = "</script><!--", inner = "<img src=x onerror=alert(1)>"
        func state(_ value: Int) -> String { #"{"\#(outer)":{"\#(inner)":\#(value)}}"# }
        let ndjson = headerLine.replacingOccurrences(of: #"{"items":[],"labels":[],"ratio":1.0,"total":0}"#, with: state(0))
            + "\n" + (1...300).map { actionLine($0, action: #"{"bump":{}}"#, state: state($0)) }.joined(separator: "\n") + "\n"

        // When it is rendered
        let html = HTMLReport.render(session: try Session(ndjson: Array(ndjson.utf8)), report: nil, source: "<x>.jsonl")

        // Then the data holds no `<` at all, so it cannot end its script element, and reads back whole, the
        // changed column's labels too
        let opening = try #require(html.range(of: #"<script type="application/json" id="report-data">"#))
        let closing = try #require(html.range(of: "</script>", range: opening.upperBound..<html.endIndex))
        #expect(!html[opening.upperBound..<closing.lowerBound].contains("<"))
        #expect(html.components(separatedBy: "</script>").count == 3)
        let steps = try #require(try embeddedData(html)["steps"]?.arrayValue)
        #expect(steps.count == 300)
        let label = #"["</script><!--"]["<img src=x onerror=alert(1)>"]"#
        #expect(steps.allSatisfy { $0["l"]?.stringValue == label })
    }
}
