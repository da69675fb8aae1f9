import StoreKitJSON

extension SessionEvent {
    /// The event as the JSON object written on its line (field names as in `docs/session-format.md`).
    public var jsonValue: JSONValue {
        switch self {
        case .header(let header):
            .object(Self.headerMembers(header))
        case .action(let event):
            .object(Self.actionMembers(event))
        case .gap(let gap):
            .object(Self.gapMembers(gap))
        case .end(let end):
            .object([
                "kind": .string(Kind.end.rawValue),
                "reason": .string(end.reason.rawValue),
                "actions": .integer(Int64(end.actions)),
                "dropped": .integer(Int64(end.dropped)),
                "time": .double(end.time),
            ])
        case .call(let call):
            .object(Self.callMembers(call))
        case .effectEnd(let end):
            .object([
                "kind": .string(Kind.effectEnd.rawValue),
                "cause": .integer(Int64(end.cause)),
                "effect": .string(end.effect),
                "outcome": .string(end.outcome.rawValue),
                "calls": .integer(Int64(end.calls)),
                "sent": .integer(Int64(end.sent)),
                "time": .double(end.time),
            ])
        case .note(let note):
            .object(Self.noteMembers(note))
        }
    }

    private static func gapMembers(_ gap: GapEvent) -> [String: JSONValue] {
        var members: [String: JSONValue] = [
            "kind": .string(Kind.gap.rawValue),
            "from": .integer(Int64(gap.firstSequence)),
            "to": .integer(Int64(gap.lastSequence)),
            "count": .integer(Int64(gap.count)),
            "reason": .string(gap.reason.rawValue),
        ]
        if let message = gap.message { members["message"] = .string(message) }
        if gap.keepsActions { members["actions"] = .array(gap.actions.map { .object(keptActionMembers($0)) }) }
        return members
    }

    /// A gap's kept action: the members of its action line but the `kind` and the state.
    private static func keptActionMembers(_ event: ActionEvent) -> [String: JSONValue] {
        var members = actionMembers(event)
        members["kind"] = nil
        members["state"] = nil
        members["patch"] = nil
        return members
    }

    private static func noteMembers(_ note: NoteEvent) -> [String: JSONValue] {
        var members: [String: JSONValue] = [
            "kind": .string(Kind.note.rawValue),
            "time": .double(note.time),
            "message": .string(note.message),
        ]
        if !note.fields.isEmpty { members["fields"] = .object(note.fields.mapValues(JSONValue.string)) }
        return members
    }

    private static func callMembers(_ call: EffectCallEvent) -> [String: JSONValue] {
        var members: [String: JSONValue] = [
            "kind": .string(Kind.call.rawValue),
            "cause": .integer(Int64(call.cause)),
            "effect": .string(call.effect),
            "index": .integer(Int64(call.index)),
            "name": .string(call.name),
            "time": .double(call.time),
            "result": call.result.jsonValue,
        ]
        if let input = call.input { members["input"] = input }
        return members
    }

    private static func actionMembers(_ event: ActionEvent) -> [String: JSONValue] {
        var members: [String: JSONValue] = [
            "kind": .string(Kind.action.rawValue),
            "seq": .integer(Int64(event.sequence)),
            "time": .double(event.time),
            "name": .string(event.name),
            "action": event.action,
        ]
        if let patch = event.patch {
            members["patch"] = patch.jsonValue
        } else {
            members["state"] = event.state
        }
        switch event.origin {
        case .app:
            members["origin"] = .string("app")
        case .effect(let cause):
            members["origin"] = .string("effect")
            if let cause { members["cause"] = .integer(Int64(cause)) }
            if let effect = event.effect { members["effect"] = .string(effect) }
        }
        return members
    }

    private static func headerMembers(_ header: SessionHeader) -> [String: JSONValue] {
        var app: [String: JSONValue] = [
            "name": .string(header.app.name),
            "version": .string(header.app.version),
            "build": .string(header.app.build),
            "schemaVersion": .string(header.app.schemaVersion),
        ]
        if !header.app.commit.isEmpty { app["commit"] = .string(header.app.commit) }
        var members: [String: JSONValue] = [
            "kind": .string(Kind.session.rawValue),
            "format": .integer(Int64(header.formatVersion)),
            "sessionId": .string(header.sessionID),
            "storeId": .string(header.storeID),
            "app": .object(app),
            "startedAt": .string(header.startedAt),
            "host": .string(header.host),
            "pid": .integer(Int64(header.pid)),
            "initialState": header.initialState,
            "metadata": .object(header.metadata),
        ]
        if !header.redaction.isEmpty {
            var redacted: [String: JSONValue] = [
                "state": .array(header.redaction.statePaths.map(JSONValue.string)),
                "action": .array(header.redaction.actionPaths.map(JSONValue.string)),
            ]
            if !header.redaction.callPaths.isEmpty {
                redacted["calls"] = .array(header.redaction.callPaths.map(JSONValue.string))
            }
            if !header.redaction.notePaths.isEmpty {
                redacted["notes"] = .array(header.redaction.notePaths.map(JSONValue.string))
            }
            members["redacted"] = .object(redacted)
        }
        if !header.effects.isEmpty { members["effects"] = .array(header.effects.map(JSONValue.string)) }
        if !header.typeNotes.isEmpty { members["typeNotes"] = .object(header.typeNotes.jsonMembers) }
        return members
    }
}

extension EffectCallResult {
    /// The result as its line holds it: `{"value": …}`, `{"error": {"type", "message", "value"?}}` or
    /// `{"cancelled": true}`.
    public var jsonValue: JSONValue {
        switch self {
        case .value(let value):
            .object(["value": value])
        case .error(let error):
            .object([
                "error": .object(
                    ["type": .string(error.type), "message": .string(error.message)]
                        .merging(error.value.map { ["value": $0] } ?? [:]) { $1 })
            ])
        case .cancelled:
            .object(["cancelled": .bool(true)])
        }
    }
}
