import StoreKitCore
import StoreKitJSON

extension ReplayReport {
    /// The report as one stable JSON document (documented in `docs/replay-cli.md`).
    public var jsonValue: JSONValue {
        var members: [String: JSONValue] = [
            "verdict": .string(verdict.name),
            "sessionId": .string(header.sessionID),
            "storeId": .string(header.storeID),
            "app": .object([
                "name": .string(header.app.name), "version": .string(header.app.version),
                "build": .string(header.app.build), "schemaVersion": .string(header.app.schemaVersion),
            ]),
            "startedAt": .string(header.startedAt),
            "actions": .integer(Int64(actionCount)),
            "stepsReplayed": .integer(Int64(stepsReplayed)),
            "stepsMatched": .integer(Int64(stepsMatched)),
            "gaps": .array(gaps.map { SessionEvent.gap($0).jsonValue }),
            "divergences": .array(divergences.map(\.jsonValue)),
            "ended": end.map { .string($0.reason.rawValue) } ?? .null,
        ]
        switch verdict {
        case .undecodable(let failure):
            members["undecodable"] = .object([
                "step": .integer(Int64(failure.step)), "action": failure.actionName.map(JSONValue.string) ?? .null,
                "part": .string(failure.part.rawValue), "path": .string(failure.path), "message": .string(failure.message),
            ])
        case .unknownStore(let id, let known):
            members["unknownStore"] = .object(["storeId": .string(id), "knownStores": .array(known.map(JSONValue.string))])
        default:
            break
        }
        if !stepsWithoutStates.isEmpty {
            members["stepsWithoutStates"] = .array(stepsWithoutStates.map(Self.rangeJSON))
        }
        if actionsKeptWithoutStates > 0 { members["actionsKeptWithoutStates"] = .integer(Int64(actionsKeptWithoutStates)) }
        if let lastStepReplayed { members["lastStepReplayed"] = .integer(Int64(lastStepReplayed)) }
        if !effects.isEmpty { members["effects"] = effects.jsonValue }
        if !effectDivergences.isEmpty { members["effectDivergences"] = .array(effectDivergences.map(\.jsonValue)) }
        if let finalState { members["finalState"] = finalState }
        if !ignoring.isEmpty {
            members["ignoring"] = .array(ignoring.map(JSONValue.string))
            members["ignored"] = .array(ignored.map(\.jsonValue))
        }
        return .object(members)
    }

    /// A range of steps as JSON: `[first, last]`.
    static func rangeJSON(_ steps: ClosedRange<Int>) -> JSONValue {
        .array([.integer(Int64(steps.lowerBound)), .integer(Int64(steps.upperBound))])
    }

    /// Reads a range of steps written by ``rangeJSON(_:)`` at `path`.
    static func steps(_ json: JSONValue, at path: String) throws(SessionEventDecodingError) -> ClosedRange<Int> {
        guard let bounds = json.arrayValue, bounds.count == 2, let first = bounds[0].integerValue,
            let last = bounds[1].integerValue, first >= 1, last >= first
        else { throw SessionEventDecodingError(path: path, message: "is not a range of steps [first, last]") }
        return Int(first)...Int(last)
    }

    /// Reads a report written by ``jsonValue`` (a replay host sends its report this way).
    /// - Throws: ``SessionEventDecodingError`` naming the field that does not fit.
    public init(jsonValue: JSONValue, header: SessionHeader) throws(SessionEventDecodingError) {
        func integer(_ key: String) throws(SessionEventDecodingError) -> Int {
            guard let value = jsonValue[key]?.integerValue else {
                throw SessionEventDecodingError(path: key, message: "is missing (expected an integer)")
            }
            return Int(value)
        }
        var gaps: [GapEvent] = []
        for gap in jsonValue["gaps"]?.arrayValue ?? [] {
            guard case .gap(let event) = try SessionEvent(jsonValue: gap) else { continue }
            gaps.append(event)
        }
        var stepsWithoutStates: [ClosedRange<Int>] = []
        for (index, range) in (jsonValue["stepsWithoutStates"]?.arrayValue ?? []).enumerated() {
            stepsWithoutStates.append(try Self.steps(range, at: "stepsWithoutStates[\(index)]"))
        }
        var ignored: [IgnoredPattern] = []
        for pattern in jsonValue["ignored"]?.arrayValue ?? [] { ignored.append(try IgnoredPattern(jsonValue: pattern)) }
        var divergences: [Divergence] = []
        for divergence in jsonValue["divergences"]?.arrayValue ?? [] {
            divergences.append(try Divergence(jsonValue: divergence))
        }
        var effectDivergences: [EffectDivergence] = []
        for divergence in jsonValue["effectDivergences"]?.arrayValue ?? [] {
            effectDivergences.append(try EffectDivergence(jsonValue: divergence))
        }
        let verdict: ReplayVerdict
        switch jsonValue["verdict"]?.stringValue {
        case "match": verdict = .match
        case "effectDiverged":
            guard let first = effectDivergences.first else {
                throw SessionEventDecodingError(path: "effectDivergences", message: "is empty for an 'effectDiverged' verdict")
            }
            verdict = .effectDiverged(first)
        case "diverged":
            guard let first = divergences.first else {
                throw SessionEventDecodingError(path: "divergences", message: "is empty for a 'diverged' verdict")
            }
            verdict = .diverged(first)
        case "incomplete": verdict = .incomplete(gaps: gaps)
        case "undecodable":
            let failure = jsonValue["undecodable"]
            verdict = .undecodable(
                Undecodable(
                    step: Int(failure?["step"]?.integerValue ?? 0), actionName: failure?["action"]?.stringValue,
                    part: Undecodable.Part(rawValue: failure?["part"]?.stringValue ?? "") ?? .action,
                    path: failure?["path"]?.stringValue ?? "", message: failure?["message"]?.stringValue ?? ""))
        case "unknownStore":
            verdict = .unknownStore(
                storeID: jsonValue["unknownStore"]?["storeId"]?.stringValue ?? header.storeID,
                knownStores: jsonValue["unknownStore"]?["knownStores"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        default:
            throw SessionEventDecodingError(path: "verdict", message: "is not a known verdict")
        }
        self.init(
            header: header, verdict: verdict, divergences: divergences, gaps: gaps, actionCount: try integer("actions"),
            stepsReplayed: try integer("stepsReplayed"), stepsMatched: try integer("stepsMatched"),
            end: jsonValue["ended"]?.stringValue.flatMap(EndEvent.Reason.init(rawValue:)).map {
                EndEvent(reason: $0, actions: 0, dropped: 0, time: 0)
            },
            finalState: jsonValue["finalState"],
            ignoring: jsonValue["ignoring"]?.arrayValue?.compactMap(\.stringValue) ?? [], ignored: ignored,
            effectDivergences: effectDivergences,
            effects: try jsonValue["effects"].map { json throws(SessionEventDecodingError) in try EffectCoverage(jsonValue: json) }
                ?? EffectCoverage(),
            stepsWithoutStates: stepsWithoutStates,
            actionsKeptWithoutStates: jsonValue["actionsKeptWithoutStates"] == nil ? 0 : try integer("actionsKeptWithoutStates"),
            lastStepReplayed: jsonValue["lastStepReplayed"] == nil ? nil : try integer("lastStepReplayed"))
    }
}

extension Divergence {
    /// The divergence as JSON: step, action, origin, time, the two states, the changes, and where the states hold
    /// dictionaries written as keyed pairs, dates, durations and sets (`keyedPairArrays`, `dates`, `durations`,
    /// `sets`, see ``EncodedTypeNotes/jsonMembers``; each only when there are some), so that a reader diffs and
    /// shows them as this one did.
    public var jsonValue: JSONValue {
        var origin: JSONValue = .string("app")
        if case .effect(let cause) = self.origin {
            origin = .object(["effect": cause.map { .integer(Int64($0)) } ?? .null])
        }
        var members: [String: JSONValue] = [
            "step": .integer(Int64(step)), "actionName": .string(actionName), "action": action, "origin": origin,
            "time": .double(time), "recorded": recorded, "replayed": replayed, "changes": diff.jsonValue,
        ]
        members.merge(diff.typeNotes.jsonMembers) { _, note in note }
        if !precedingActions.isEmpty { members["context"] = .array(precedingActions.map(\.jsonValue)) }
        if !ignored.isEmpty { members["ignored"] = .array(ignored.map(\.jsonValue)) }
        if let comparedAsJSON { members["comparedAsJSON"] = .string(comparedAsJSON) }
        if let unrecordedSteps { members["unrecordedSteps"] = ReplayReport.rangeJSON(unrecordedSteps) }
        return .object(members)
    }

    /// Reads a divergence written by ``jsonValue``.
    init(jsonValue: JSONValue) throws(SessionEventDecodingError) {
        guard let step = jsonValue["step"]?.integerValue, let recorded = jsonValue["recorded"],
            let replayed = jsonValue["replayed"]
        else { throw SessionEventDecodingError(path: "divergences", message: "holds an incomplete divergence") }
        var origin = ActionEvent.Origin.app
        if let effect = jsonValue["origin"]?["effect"] { origin = .effect(cause: effect.integerValue.map { Int($0) }) }
        let typeNotes: EncodedTypeNotes
        do {
            typeNotes = try EncodedTypeNotes(jsonMembers: jsonValue.objectValue ?? [:])
        } catch {
            throw SessionEventDecodingError(
                path: "divergences[].\(error.member)", message: "is not an array of paths of strings, [] and {}")
        }
        // The changes as the replay computed them: read, not computed again.
        var changes: [StateDiff.Change] = []
        for change in jsonValue["changes"]?.arrayValue ?? [] {
            changes.append(try StateDiff.Change(jsonValue: change))
        }
        var precedingActions: [PrecedingAction] = []
        for entry in jsonValue["context"]?.arrayValue ?? [] {
            guard let sequence = entry["step"]?.integerValue, let name = entry["name"]?.stringValue, let action = entry["action"]
            else {
                throw SessionEventDecodingError(
                    path: "divergences[].context", message: "holds an entry without 'step', 'name' and 'action'")
            }
            precedingActions.append(PrecedingAction(step: Int(sequence), name: name, action: action))
        }
        var ignored: [IgnoredDifferences] = []
        for entry in jsonValue["ignored"]?.arrayValue ?? [] { ignored.append(try IgnoredDifferences(jsonValue: entry)) }
        self.init(
            step: Int(step), actionName: jsonValue["actionName"]?.stringValue ?? "", action: jsonValue["action"] ?? .null,
            origin: origin, time: jsonValue["time"]?.doubleValue ?? 0, recorded: recorded, replayed: replayed,
            diff: StateDiff(old: recorded, new: replayed, changes: changes, typeNotes: typeNotes),
            precedingActions: precedingActions, ignored: ignored, comparedAsJSON: jsonValue["comparedAsJSON"]?.stringValue,
            unrecordedSteps: try jsonValue["unrecordedSteps"].map { json throws(SessionEventDecodingError) in
                try ReplayReport.steps(json, at: "divergences[].unrecordedSteps")
            })
    }
}

extension PrecedingAction {
    /// The action as JSON: `{"step", "name", "action"}`.
    public var jsonValue: JSONValue {
        .object(["step": .integer(Int64(step)), "name": .string(name), "action": action])
    }
}

extension StateDiff.Change {
    /// Reads a change written by ``StateDiff/jsonValue``.
    /// - Throws: ``SessionEventDecodingError`` when its components or kind do not fit.
    init(jsonValue: JSONValue) throws(SessionEventDecodingError) {
        let location = "divergences[].changes[]"
        guard let components = jsonValue["components"] else {
            throw SessionEventDecodingError(path: location + ".components", message: "is missing (expected an array)")
        }
        let path = try JSONPath(componentsJSON: components, at: location + ".components")
        let kind: Kind
        switch (jsonValue["kind"]?.stringValue, jsonValue["old"], jsonValue["new"]) {
        case ("changed", let old?, let new?): kind = .changed(from: old, to: new)
        case ("added", nil, let new?): kind = .added(new)
        case ("removed", let old?, nil): kind = .removed(old)
        case ("moved", nil, nil):
            guard let from = jsonValue["from"]?.integerValue, let to = jsonValue["to"]?.integerValue, from >= 0, to >= 0
            else {
                throw SessionEventDecodingError(
                    path: location + ".from", message: "is missing (a 'moved' change needs 'from' and 'to', indices)")
            }
            kind = .moved(from: Int(from), to: Int(to))
        default:
            throw SessionEventDecodingError(
                path: location + ".kind",
                message: "is not 'changed' (with old and new), 'added' (new), 'removed' (old) or 'moved' (from and to)")
        }
        self.init(path: path, kind: kind)
    }
}

extension JSONPath.Component {
    /// The component as data: a key as a string, an index as an integer, a map's key as `{"mapKey": key}`, an
    /// identified element as `{"id": id}`, a set's member as `{"setMember": member}`.
    var jsonValue: JSONValue {
        switch self {
        case .key(let key): .string(key)
        case .index(let index): .integer(Int64(index))
        case .mapKey(let key): .object(["mapKey": key])
        case .identified(let id): .object(["id": id])
        case .setMember(let member): .object(["setMember": member])
        }
    }
}

extension JSONPath {
    /// The path as an array of its components' JSON (see ``StateDiff/jsonValue``).
    var componentsJSON: JSONValue { .array(components.map(\.jsonValue)) }

    /// Reads a path written by ``componentsJSON``.
    /// - Throws: ``SessionEventDecodingError`` at `location` when it is not one.
    init(componentsJSON json: JSONValue, at location: String) throws(SessionEventDecodingError) {
        guard let components = json.arrayValue else {
            throw SessionEventDecodingError(path: location, message: "is not an array of path components")
        }
        var path: [Component] = []
        for component in components {
            switch component {
            case .string(let key): path.append(.key(key))
            case .integer(let index): path.append(.index(Int(index)))
            case .object(let members) where members.count == 1 && members["mapKey"] != nil:
                path.append(.mapKey(members["mapKey"] ?? .null))
            case .object(let members) where members.count == 1 && members["id"] != nil:
                path.append(.identified(members["id"] ?? .null))
            case .object(let members) where members.count == 1 && members["setMember"] != nil:
                path.append(.setMember(members["setMember"] ?? .null))
            default:
                throw SessionEventDecodingError(
                    path: location,
                    message: "holds a component that is not a key, an index, {\"mapKey\": …}, {\"id\": …} or "
                        + "{\"setMember\": …}")
            }
        }
        self.init(path)
    }
}
