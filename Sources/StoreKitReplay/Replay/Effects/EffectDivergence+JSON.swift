import StoreKitCore
import StoreKitJSON

extension EffectDivergence {
    /// The divergence as JSON: `step`, `cause`, `causeName`, `causeAction` (when known), `effect`, `kind` (the case's name) and the case's values
    /// (`recorded` and `sent` actions as `{"name","action","step"?}`, `changes` as a state diff writes them, `call`
    /// as `{"name","index"}`, `made`, `expected`, `message`, `recordedCancelled`, `recordedOutcome`,
    /// `replayedOutcome`).
    public var jsonValue: JSONValue {
        var members: [String: JSONValue] = [
            "step": .integer(Int64(step)), "cause": .integer(Int64(cause)), "causeName": .string(causeName),
            "effect": .string(effect),
        ]
        if let causeAction { members["causeAction"] = causeAction }
        func call(_ name: String, _ index: Int) -> JSONValue {
            .object(["name": .string(name), "index": .integer(Int64(index))])
        }
        switch kind {
        case .actionNotRecorded(let sent):
            members["kind"] = .string("actionNotRecorded")
            members["sent"] = sent.jsonValue
        case .actionNotSent(let recorded):
            members["kind"] = .string("actionNotSent")
            members["recorded"] = recorded.jsonValue
        case .actionDiffers(let recorded, let sent, let diff):
            members["kind"] = .string("actionDiffers")
            members["recorded"] = recorded.jsonValue
            members["sent"] = sent.jsonValue
            members["changes"] = diff.jsonValue
        case .callNotRecorded(let name, let index):
            members["kind"] = .string("callNotRecorded")
            members["call"] = call(name, index)
        case .callNotMade(let name, let index):
            members["kind"] = .string("callNotMade")
            members["call"] = call(name, index)
        case .callChanged(let index, let recorded, let made):
            members["kind"] = .string("callChanged")
            members["call"] = call(recorded, index)
            members["made"] = .string(made)
        case .callInputDiffers(let name, let index, let diff):
            members["kind"] = .string("callInputDiffers")
            members["call"] = call(name, index)
            members["recordedInput"] = diff.old
            members["input"] = diff.new
            members["changes"] = diff.jsonValue
        case .callResultDoesNotDecode(let name, let index, let expected, let message):
            members["kind"] = .string("callResultDoesNotDecode")
            members["call"] = call(name, index)
            members["expected"] = .string(expected)
            members["message"] = .string(message)
        case .cancellationChanged(let name, let index, let recordedCancelled):
            members["kind"] = .string("cancellationChanged")
            members["call"] = call(name, index)
            members["recordedCancelled"] = .bool(recordedCancelled)
        case .outcomeChanged(let recorded, let replayed):
            members["kind"] = .string("outcomeChanged")
            members["recordedOutcome"] = .string(recorded.rawValue)
            members["replayedOutcome"] = .string(replayed.rawValue)
        }
        return .object(members)
    }

    /// Reads a divergence written by ``jsonValue``.
    /// - Throws: ``SessionEventDecodingError`` naming the field that does not fit.
    init(jsonValue json: JSONValue) throws(SessionEventDecodingError) {
        let fields = EffectJSONFields(json: json, path: "effectDivergences[]")
        let kind: Kind
        switch try fields.string("kind") {
        case "actionNotRecorded": kind = .actionNotRecorded(sent: try fields.action("sent"))
        case "actionNotSent": kind = .actionNotSent(recorded: try fields.action("recorded"))
        case "actionDiffers":
            let recorded = try fields.action("recorded")
            let sent = try fields.action("sent")
            kind = .actionDiffers(recorded: recorded, sent: sent, diff: try fields.diff(from: recorded.action, to: sent.action))
        case "callNotRecorded":
            let (name, index) = try fields.call()
            kind = .callNotRecorded(name: name, index: index)
        case "callNotMade":
            let (name, index) = try fields.call()
            kind = .callNotMade(name: name, index: index)
        case "callChanged":
            let (name, index) = try fields.call()
            kind = .callChanged(index: index, recorded: name, made: try fields.string("made"))
        case "callInputDiffers":
            let (name, index) = try fields.call()
            let diff = try fields.diff(from: fields.value("recordedInput"), to: fields.value("input"))
            kind = .callInputDiffers(name: name, index: index, diff: diff)
        case "callResultDoesNotDecode":
            let (name, index) = try fields.call()
            kind = .callResultDoesNotDecode(
                name: name, index: index, expected: try fields.string("expected"), message: try fields.string("message"))
        case "cancellationChanged":
            let (name, index) = try fields.call()
            guard case .bool(let cancelled)? = json["recordedCancelled"] else {
                throw fields.error("recordedCancelled", "is missing (expected true or false)")
            }
            kind = .cancellationChanged(name: name, index: index, recordedCancelled: cancelled)
        case "outcomeChanged":
            kind = .outcomeChanged(recorded: try fields.outcome("recordedOutcome"), replayed: try fields.outcome("replayedOutcome"))
        case let other:
            throw fields.error("kind", "is '\(other.escapingControls())', not a kind of effect divergence")
        }
        self.init(
            step: try fields.integer("step"), cause: try fields.integer("cause"),
            causeName: try fields.string("causeName"), causeAction: json["causeAction"], effect: try fields.string("effect"), kind: kind)
    }
}

extension EffectAction {
    /// The action as JSON: `{"name", "action", "step"?}`.
    public var jsonValue: JSONValue {
        var members: [String: JSONValue] = ["name": .string(name), "action": action]
        if let step { members["step"] = .integer(Int64(step)) }
        return .object(members)
    }
}

extension EffectCoverage {
    /// What was checked as JSON: `runsReplayed`, `inputsFed`, `actionsCompared`, `actionsEqual` and `notChecked`,
    /// an array of `{"reason", "effects", "actions"}`.
    public var jsonValue: JSONValue {
        .object([
            "runsReplayed": .integer(Int64(runsReplayed)), "inputsFed": .integer(Int64(inputsFed)),
            "actionsCompared": .integer(Int64(actionsCompared)), "actionsEqual": .integer(Int64(actionsEqual)),
            "notChecked": .array(
                notChecked.map {
                    .object([
                        "reason": .string($0.reason.rawValue), "effects": .array($0.effects.map(JSONValue.string)),
                        "actions": .integer(Int64($0.actions)),
                    ])
                }),
        ])
    }

    /// Reads what ``jsonValue`` wrote.
    /// - Throws: ``SessionEventDecodingError`` naming the field that does not fit.
    init(jsonValue json: JSONValue) throws(SessionEventDecodingError) {
        let fields = EffectJSONFields(json: json, path: "effects")
        self.init()
        runsReplayed = try fields.integer("runsReplayed")
        inputsFed = try fields.integer("inputsFed")
        actionsCompared = try fields.integer("actionsCompared")
        actionsEqual = try fields.integer("actionsEqual")
        for entry in json["notChecked"]?.arrayValue ?? [] {
            let skipped = EffectJSONFields(json: entry, path: "effects.notChecked[]")
            let reasonText = try skipped.string("reason")
            guard let reason = EffectsNotChecked.Reason(rawValue: reasonText) else {
                throw skipped.error("reason", "is '\(reasonText.escapingControls())', not a known reason")
            }
            notChecked.append(
                EffectsNotChecked(
                    reason: reason, effects: entry["effects"]?.arrayValue?.compactMap(\.stringValue) ?? [],
                    actions: try skipped.integer("actions")))
        }
    }
}

/// Typed reads of a JSON object's members, with errors naming the member's path.
private struct EffectJSONFields {
    let json: JSONValue
    let path: String

    func error(_ key: String, _ message: String) -> SessionEventDecodingError {
        SessionEventDecodingError(path: "\(path).\(key)", message: message)
    }

    func value(_ key: String) throws(SessionEventDecodingError) -> JSONValue {
        guard let value = json[key] else { throw error(key, "is missing") }
        return value
    }

    func string(_ key: String) throws(SessionEventDecodingError) -> String {
        guard let value = json[key]?.stringValue else { throw error(key, "is missing (expected a string)") }
        return value
    }

    func integer(_ key: String) throws(SessionEventDecodingError) -> Int {
        guard let value = json[key]?.integerValue else { throw error(key, "is missing (expected an integer)") }
        return Int(value)
    }

    func action(_ key: String) throws(SessionEventDecodingError) -> EffectAction {
        let fields = EffectJSONFields(json: try value(key), path: "\(path).\(key)")
        return EffectAction(
            name: try fields.string("name"), action: try fields.value("action"),
            step: fields.json["step"]?.integerValue.map { Int($0) })
    }

    func call() throws(SessionEventDecodingError) -> (String, Int) {
        let fields = EffectJSONFields(json: try value("call"), path: "\(path).call")
        return (try fields.string("name"), try fields.integer("index"))
    }

    func outcome(_ key: String) throws(SessionEventDecodingError) -> EffectRunOutcome {
        let text = try string(key)
        guard let outcome = EffectRunOutcome(rawValue: text) else {
            throw error(key, "is '\(text.escapingControls())', not finished, cancelled or runningAtEnd")
        }
        return outcome
    }

    /// The diff from `old` to `new` as the replay computed it: read, not computed again.
    func diff(from old: JSONValue, to new: JSONValue) throws(SessionEventDecodingError) -> StateDiff {
        var changes: [StateDiff.Change] = []
        for change in json["changes"]?.arrayValue ?? [] { changes.append(try StateDiff.Change(jsonValue: change)) }
        return StateDiff(old: old, new: new, changes: changes, typeNotes: EncodedTypeNotes())
    }
}
