import StoreKitCore
import StoreKitJSON

/// The data an HTML report embeds once, as JSON, for its script to render from.
///
/// ```
/// {"source": …, "session": {"id", "store", "app", "startedAt", "actions", "kept", "ended"}, "note": …|null,
///  "initialState": …,
///  "steps": [{"s": step, "n": name, "o": "app"|"effect", "c": cause|null, "t": seconds, "a": action,
///             "d": changes, "l": label of the first change (only with changes), "p": patch}],
///  "effectLines": [{"after": step, "k": "call"|"end"|"note", "t": seconds, "c": cause|null, "text": line}],
///  "gaps": [{"first", "last", "count", "reason", "message"}],
///  "replay": null | {"verdict", "explanation", "stepsReplayed", "stepsMatched",
///                    "divergences": [{"step", "name", "patch", "changes", "dump"}],
///                    "byPath": [{"path", "steps"}], "undecodable": …|null,
///                    "effectDivergences": [{"step", "effect", "cause", "text", "dump"}], "effectsNotChecked": …|null},
///  "drift": [{"part", "case", "path", "message", "count", "firstStep"}]}
/// ```
/// A step's `d` is what the action changed, as ``StateDiff/jsonValue`` gives it without `components` (paths as the
/// diff renders them); `p` is the RFC 6902 patch from the state before to the state after, which the script
/// applies to rebuild a state only when it is shown. A step's keys are short: a session holds thousands of them.
/// A step's `l` is its first change's path cut to the leaf and its nearest named parent
/// (``StoreKitJSON/JSONPath/leafAndNamedParent``), for the timeline's narrow column.
///
/// A divergence holds the replayed state as `patch`, the RFC 6902 patch from the recorded state after its step to
/// the replayed one, so that thousands of divergences do not embed thousands of states. `byPath` counts the
/// diverging steps by where they differ, subscripts as `*` (``StoreKitJSON/JSONPath/withSubscriptsAsWildcards``:
/// `todos[id: *].isComplete`), most steps first, each with its steps in order.
/// An effect line (a call or an effect run's end, format 2) is shown after the action line it follows in the
/// session (`after`, 0 before the first), as its one-line ``EffectCallEvent/summary`` or
/// ``EffectEndEvent/summary``. A note (format 3) is shown the same way, as its ``NoteEvent/summary``, with no cause.
struct HTMLReportData {
    /// The data.
    let value: JSONValue

    init(session: Session, report: ReplayReport?, drift: SchemaDrift?, note: String?, source: String) {
        let header = session.header
        var steps: [JSONValue] = []
        var gaps: [JSONValue] = []
        var effectLines: [JSONValue] = []
        var lastStep = 0
        var previous = header.initialState
        var end: EndEvent?
        let divergingSteps = Set(report?.divergences.map(\.step) ?? [])
        var recordedAtDivergence: [Int: JSONValue] = [:]
        for event in session.events {
            switch event {
            case .action(let action):
                steps.append(Self.step(action, after: previous))
                previous = action.state
                lastStep = action.sequence
                if divergingSteps.contains(action.sequence) { recordedAtDivergence[action.sequence] = action.state }
            case .call(let call):
                effectLines.append(Self.effectLine(after: lastStep, kind: "call", time: call.time, cause: call.cause, text: call.summary))
            case .effectEnd(let ended):
                effectLines.append(Self.effectLine(after: lastStep, kind: "end", time: ended.time, cause: ended.cause, text: ended.summary))
            case .note(let note):
                effectLines.append(Self.effectLine(after: lastStep, kind: "note", time: note.time, cause: nil, text: note.summary))
            case .gap(let gap):
                gaps.append(Self.gap(gap))
            case .end(let ended):
                end = ended
            case .header:
                break
            }
        }
        // Sequence numbers missing without a gap line are gaps the replay report found.
        let recordedGaps = Set(session.events.compactMap { event -> Int? in
            if case .gap(let gap) = event { return gap.firstSequence } else { return nil }
        })
        for gap in report?.gaps ?? [] where !recordedGaps.contains(gap.firstSequence) { gaps.append(Self.gap(gap)) }
        value = .object([
            "source": .string(source),
            "session": .object([
                "id": .string(header.sessionID), "store": .string(header.storeID),
                "app": .object([
                    "name": .string(header.app.name), "version": .string(header.app.version),
                    "build": .string(header.app.build),
                ]),
                "startedAt": .string(header.startedAt), "actions": .integer(Int64(steps.count)),
                "kept": .integer(Int64(session.actionsKeptWithoutStates)),
                "ended": end.map { .string($0.reason.rawValue) } ?? .null,
            ]),
            "note": note.map(JSONValue.string) ?? .null,
            "initialState": header.initialState,
            "steps": .array(steps),
            "effectLines": .array(effectLines),
            "gaps": .array(gaps),
            "replay": report.map { Self.replay($0, recorded: recordedAtDivergence, source: source) } ?? .null,
            "drift": drift?.jsonValue["entries"] ?? .array([]),
        ])
    }

    /// The data as JSON text that is safe inside a `<script>` element: every `<` (only ever inside a string) is
    /// written `\u003c`, the same JSON value, so that no `</script>` or `<!--` in the data ends the element.
    var embeddableJSON: String {
        let escapedLessThan = Array("\\u003c".utf8)
        let json = value.canonicalString
        var bytes: [UInt8] = []
        bytes.reserveCapacity(json.utf8.count)
        for byte in json.utf8 {
            if byte == UInt8(ascii: "<") { bytes += escapedLessThan } else { bytes.append(byte) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func step(_ action: ActionEvent, after previous: JSONValue) -> JSONValue {
        let origin: String
        let cause: JSONValue
        switch action.origin {
        case .app:
            origin = "app"
            cause = .null
        case .effect(let step):
            origin = "effect"
            cause = step.map { .integer(Int64($0)) } ?? .null
        }
        let diff = StateDiff(from: previous, to: action.state)
        var members: [String: JSONValue] = [
            "s": .integer(Int64(action.sequence)), "n": .string(action.name), "o": .string(origin), "c": cause,
            "t": .double(action.time), "a": action.action, "w": .string(swiftText(action.action, named: action.name)),
            "d": changes(diff),
            "p": JSONPatch(from: previous, to: action.state).jsonValue,
        ]
        if let first = diff.changes.first { members["l"] = .string(first.path.leafAndNamedParent) }
        return .object(members)
    }

    /// An action as Swift writes it (``CompactDescription/init(encodedAction:name:)``), unescaped: the script puts
    /// it in the page as text, never as markup.
    private static func swiftText(_ action: JSONValue, named name: String) -> String {
        CompactDescription(encodedAction: action, name: name).description
    }

    private static func effectLine(after step: Int, kind: String, time: Double, cause: Int?, text: String) -> JSONValue {
        .object([
            "after": .integer(Int64(step)), "k": .string(kind), "t": .double(time),
            "c": cause.map { .integer(Int64($0)) } ?? .null,
            "text": .string(text),
        ])
    }

    /// A diff's changes as ``StateDiff/jsonValue`` has them, without the paths as data (`components`).
    private static func changes(_ diff: StateDiff) -> JSONValue {
        .array(
            (diff.jsonValue.arrayValue ?? []).map { change in
                guard case .object(var members) = change else { return change }
                members["components"] = nil
                return .object(members)
            })
    }

    private static func gap(_ gap: GapEvent) -> JSONValue {
        .object([
            "first": .integer(Int64(gap.firstSequence)), "last": .integer(Int64(gap.lastSequence)),
            "count": .integer(Int64(gap.count)), "reason": .string(gap.reason.rawValue),
            "message": gap.message.map(JSONValue.string) ?? .null,
        ])
    }

    /// The diverging steps by where they differ (subscripts as `*`), most steps first, then by path.
    private static func divergingStepsByPath(_ divergences: [Divergence]) -> JSONValue {
        var stepsAt: [String: [Int]] = [:]
        for divergence in divergences {
            for path in Set(divergence.diff.changes.map(\.path.withSubscriptsAsWildcards)) {
                stepsAt[path, default: []].append(divergence.step)
            }
        }
        let ordered = stepsAt.sorted { ($0.value.count, $1.key) > ($1.value.count, $0.key) }
        return .array(
            ordered.map { path, steps in
                .object(["path": .string(path), "steps": .array(steps.sorted().map { .integer(Int64($0)) })])
            })
    }

    private static func replay(_ report: ReplayReport, recorded: [Int: JSONValue], source: String) -> JSONValue {
        var undecodable = JSONValue.null
        if case .undecodable(let failure) = report.verdict {
            undecodable = .object([
                "step": .integer(Int64(failure.step)), "name": failure.actionName.map(JSONValue.string) ?? .null,
                "part": .string(failure.part.rawValue), "path": .string(failure.path), "message": .string(failure.message),
            ])
        }
        return .object([
            "verdict": .string(report.verdict.name),
            "explanation": .string(report.explanation(source: source)),
            "stepsReplayed": .integer(Int64(report.stepsReplayed)),
            "stepsMatched": .integer(Int64(report.stepsMatched)),
            "divergences": .array(
                report.divergences.map { divergence in
                    .object([
                        "step": .integer(Int64(divergence.step)), "name": .string(divergence.actionName),
                        "w": .string(swiftText(divergence.action, named: divergence.actionName)),
                        "patch": JSONPatch(from: recorded[divergence.step] ?? .null, to: divergence.replayed).jsonValue,
                        "changes": changes(divergence.diff),
                        "dump": .string(divergence.diff.rendered()),
                    ])
                }),
            "byPath": divergingStepsByPath(report.divergences),
            "undecodable": undecodable,
            "effectDivergences": .array(
                report.effectDivergences.map { divergence in
                    // The explanation's lines under its first, one indentation less, so that `-`/`+` start them.
                    let dump = divergence.explanationLines(stepCount: report.stepCount).dropFirst().map {
                        $0.text.hasPrefix("  ") ? String($0.text.dropFirst(2)) : $0.text
                    }
                    return .object([
                        "step": .integer(Int64(divergence.step)), "effect": .string(divergence.effect),
                        "cause": .integer(Int64(divergence.cause)), "text": .string(divergence.summary),
                        "causeW": divergence.causeAction.map { .string(swiftText($0, named: divergence.causeName)) } ?? .null,
                        "dump": .string(dump.joined(separator: "\n")),
                    ])
                }),
            "effectsNotChecked": report.effectsNotChecked.map(JSONValue.string) ?? .null,
        ])
    }
}
