import ReplayCommands
import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import Testing

/// The explanation is rendered once from the report's structure, each line with its kind; colour follows the kind.
@Suite struct RenderingTests {
    static let header = SessionHeader(
        sessionID: "s1", storeID: "counter", app: AppInfo(name: "App", version: "1.0"), startedAt: "2026-11-23T10:00:00Z",
        host: "h", pid: 1, initialState: .object(["count": .integer(0)]))

    /// A report diverged at step 3, with two actions before it as context.
    static func divergedReport() throws -> ReplayReport {
        try ReplayReport(
            jsonValue: .object([
                "verdict": .string("diverged"), "actions": .integer(4), "stepsReplayed": .integer(3),
                "stepsMatched": .integer(2),
                "divergences": .array([
                    .object([
                        "step": .integer(3), "actionName": .string("increment"), "action": .object(["increment": .object([:])]),
                        "origin": .string("app"), "time": .double(1.5),
                        "recorded": .object(["count": .integer(3)]), "replayed": .object(["count": .integer(2)]),
                        "changes": .array([
                            .object([
                                "path": .string("count"), "components": .array([.string("count")]),
                                "kind": .string("changed"), "old": .integer(3), "new": .integer(2),
                            ])
                        ]),
                        "context": .array([
                            .object(["step": .integer(1), "name": .string("reset"), "action": .object(["reset": .object([:])])]),
                            .object(["step": .integer(2), "name": .string("add"), "action": .object(["add": .object(["_0": .integer(2)])])]),
                        ]),
                    ])
                ]),
            ]), header: header)
    }

    @Test func theExplanationsLinesHaveTheirKinds() throws {
        let lines = try Self.divergedReport().explanationLines(source: "s.jsonl")
        #expect(
            lines == [
                RenderedLine(.text, "s.jsonl: store \"counter\", 4 actions, recorded by App 1.0 on 2026-11-23, no end line (still recording, or cut off)"),
                RenderedLine(.text, "diverged at step 3 of 4"),
                RenderedLine(.text, "  action  increment    (from the app, 1.500 s in)"),
                RenderedLine(.context, "  before  1 reset"),
                RenderedLine(.context, "  before  2 add(2)"),
                RenderedLine(.text, ""),
                RenderedLine(.text, "  state after step 3 (- recorded, + replayed)"),
                RenderedLine(.unchanged, "    {"),
                RenderedLine(.removed, "  -   \"count\": 3"),
                RenderedLine(.added, "  +   \"count\": 2"),
                RenderedLine(.unchanged, "    }"),
                RenderedLine(.text, "  1 difference: count  3 -> 2"),
            ])
    }

    @Test func manyDivergingStepsReadAsRangesInOneLineCountingThoseNotNamed() throws {
        // Given a report that diverged at 39 steps, runs of them in a row
        let steps = [3, 5, 6, 7, 9, 10] + Array(20...40) + Array(stride(from: 50, through: 72, by: 2))
        guard case .object(var members) = try Self.divergedReport().jsonValue,
            case .object(let divergence)? = members["divergences"]?.arrayValue?.first
        else { throw ReportShapeError() }
        members["actions"] = .integer(100)
        members["divergences"] = .array(
            steps.map { step in
                var copy = divergence
                copy["step"] = .integer(Int64(step))
                return .object(copy)
            })

        // When it is explained
        let lines = try ReplayReport(jsonValue: .object(members), header: Self.header).explanationLines(source: "s.jsonl")

        // Then the steps are listed once, three or more in a row as a range, and past twelve parts only counted
        #expect(
            lines.last
                == RenderedLine(
                    .text, "  39 diverging steps: 3, 5-7, 9, 10, 20-40, 50, 52, 54, 56, 58, 60, 62, and 5 more steps"))
    }

    /// The report's JSON was not the shape the test builds on.
    struct ReportShapeError: Error {}

    @Test func theContextAndTheChangesSurviveTheReportsJSON() throws {
        let report = try Self.divergedReport()
        let reread = try ReplayReport(jsonValue: report.jsonValue, header: Self.header)
        #expect(reread.divergences == report.divergences)
        #expect(reread.divergences.first?.precedingActions.map(\.step) == [1, 2])
        #expect(reread.explanationLines(source: "s") == report.explanationLines(source: "s"))
    }

    @Test func theChangesAreReadAsSentNotComputedAgain() throws {
        // The host's diff of maps written as keyed pairs, by map key: carried as data, its paths survive whole.
        let recorded: JSONValue = .object(["scores": .array([.integer(7), .string("a"), .integer(8), .string("b")])])
        let replayed: JSONValue = .object(["scores": .array([.integer(7), .string("a"), .integer(8), .string("c")])])
        let path = JSONPath([.key("scores"), .mapKey(.integer(8))])
        let diff = StateDiff(
            old: recorded, new: replayed, changes: [StateDiff.Change(path: path, kind: .changed(from: .string("b"), to: .string("c")))],
            typeNotes: EncodedTypeNotes())
        let reread = try ReplayReport(
            jsonValue: .object([
                "verdict": .string("diverged"), "actions": .integer(1), "stepsReplayed": .integer(1), "stepsMatched": .integer(0),
                "divergences": .array([
                    .object([
                        "step": .integer(1), "actionName": .string("score"), "action": .null, "origin": .string("app"),
                        "time": .double(0), "recorded": recorded, "replayed": replayed, "changes": diff.jsonValue,
                    ])
                ]),
            ]), header: Self.header)
        #expect(reread.divergences.first?.diff.changes == diff.changes)
    }

    @Test func aMoveIsReadBackFromItsJSONAndAMalformedOneIsNamed() throws {
        // Given a move written as data
        let move = StateDiff.Change(path: [.key("syncUps"), .identified(.string("a"))], kind: .moved(from: 2, to: 0))
        let diff = StateDiff(old: .null, new: .null, changes: [move], typeNotes: EncodedTypeNotes())
        func divergence(_ changes: JSONValue) -> JSONValue {
            .object([
                "verdict": .string("diverged"), "actions": .integer(1), "stepsReplayed": .integer(1), "stepsMatched": .integer(0),
                "divergences": .array([
                    .object([
                        "step": .integer(1), "actionName": .string("move"), "action": .null, "origin": .string("app"),
                        "time": .double(0), "recorded": .null, "replayed": .null, "changes": changes,
                    ])
                ]),
            ])
        }

        // Then it reads back as the same move
        let reread = try ReplayReport(jsonValue: divergence(diff.jsonValue), header: Self.header)
        #expect(reread.divergences.first?.diff.changes == [move])

        // And a move without its indices is refused, naming the field
        let malformed: JSONValue = .array([.object(["path": .string("x"), "components": .array([.string("x")]), "kind": .string("moved")])])
        let error = #expect(throws: SessionEventDecodingError.self) {
            _ = try ReplayReport(jsonValue: divergence(malformed), header: Self.header)
        }
        #expect(error?.path == "divergences[].changes[].from")
    }

    @Test func colourFollowsTheKindNotTheText() {
        // A prose line that starts with "- " is not a removed line, and is not coloured as one.
        let lines = [
            RenderedLine(.text, "- not a diff line"), RenderedLine(.removed, "- old"), RenderedLine(.added, "+ new"),
            RenderedLine(.unchanged, "  same"),
        ]
        #expect(
            Terminal(useColor: true, showProgress: false).render(lines)
                == "- not a diff line\n\u{1B}[31m- old\u{1B}[0m\n\u{1B}[32m+ new\u{1B}[0m\n  same")
        #expect(Terminal(useColor: false, showProgress: false).render(lines) == "- not a diff line\n- old\n+ new\n  same")
    }

    @Test func colouredLinesShowTheirOwnEscapesVisiblyAndOnlyTheColoursRaw() {
        // Given diff lines whose text holds a title change and a one-character CSI
        let lines = [RenderedLine(.removed, "- \u{1B}]0;pwned\u{07}"), RenderedLine(.text, "\u{9B}2J")]

        // When they are rendered on a colour terminal
        let rendered = Terminal(useColor: true, showProgress: false).render(lines)

        // Then the only escapes written are the colour's
        #expect(rendered == "\u{1B}[31m- \\u001b]0;pwned\\u0007\u{1B}[0m\n\\u009b2J")
    }

    @Test func precedingActionsAreReadFromTheSessionUpToEachDivergence() throws {
        var report = try Self.divergedReport()
        report.divergences[0].precedingActions = []
        let session = SessionEvent.header(Self.header).jsonValue.canonicalString + "\n"
            + (1...4).map { step in
                ActionEvent(
                    sequence: step, time: Double(step), name: "a\(step)", action: .integer(Int64(step)), origin: .app,
                    state: .object(["count": .integer(Int64(step))])
                ).jsonLine
            }.joined()
        try report.attachPrecedingActions(1, from: SessionReader(bytes: Array(session.utf8), source: "s"))
        #expect(report.divergences[0].precedingActions == [PrecedingAction(step: 2, name: "a2", action: .integer(2))])
        guard case .diverged(let first) = report.verdict else {
            Issue.record("the verdict is no longer diverged")
            return
        }
        #expect(first.precedingActions == report.divergences[0].precedingActions)
    }
}

extension ActionEvent {
    /// The action as one session line.
    fileprivate var jsonLine: String { SessionEvent.action(self).jsonValue.canonicalString + "\n" }
}
