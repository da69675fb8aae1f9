import StoreKitCore
import StoreKitJSON
import StoreKitSystem

extension SessionEvent {
    /// Reads an event from the JSON object of one line.
    /// - Throws: ``SessionEventDecodingError`` naming the field (as a JSON path) and what is wrong with it.
    public init(jsonValue: JSONValue) throws(SessionEventDecodingError) {
        guard case .object(let members) = jsonValue else {
            throw SessionEventDecodingError(path: "", message: "a line must be a JSON object, found \(jsonValue.typeName)")
        }
        let fields = EventFields(members: members, prefix: "")
        // Nearly every line is an action: its members are found in one pass, without hashing a key per field.
        let line = ActionLineMembers(members)
        let kindText = try fields.string("kind", line.kind)
        guard let kind = Kind(rawValue: kindText) else {
            let known = Kind.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
            throw SessionEventDecodingError(path: "kind", message: "is '\(kindText.escapingControls())'; expected one of \(known)")
        }
        switch kind {
        case .session: self = .header(try Self.header(fields))
        case .action: self = .action(try Self.action(fields, line))
        case .gap: self = .gap(try Self.gap(fields))
        case .end: self = .end(try Self.end(fields))
        case .call: self = .call(try Self.call(fields))
        case .effectEnd: self = .effectEnd(try Self.effectEnd(fields))
        case .note: self = .note(try Self.note(fields))
        }
    }

    private static func header(_ fields: EventFields) throws(SessionEventDecodingError) -> SessionHeader {
        let app = try fields.object("app")
        return SessionHeader(
            formatVersion: try fields.integer("format"),
            sessionID: try fields.string("sessionId"),
            storeID: try fields.string("storeId"),
            app: AppInfo(
                name: try app.string("name"),
                version: try app.optionalString("version") ?? "",
                build: try app.optionalString("build") ?? "",
                schemaVersion: try app.optionalString("schemaVersion") ?? "",
                commit: try commit(app)),
            startedAt: try fields.string("startedAt"),
            host: try fields.optionalString("host") ?? "",
            pid: try fields.optionalInteger("pid") ?? 0,
            initialState: try fields.value("initialState"),
            metadata: try fields.optionalObject("metadata")?.members ?? [:],
            redaction: try redaction(fields.optionalObject("redacted")),
            effects: try fields.optionalStrings("effects") ?? [],
            typeNotes: try typeNotes(fields.optionalObject("typeNotes")))
    }

    /// The header's `typeNotes`: none when absent, else the notes ``EncodedTypeNotes/jsonMembers`` wrote.
    private static func typeNotes(_ fields: EventFields?) throws(SessionEventDecodingError) -> EncodedTypeNotes {
        guard let fields else { return EncodedTypeNotes() }
        do {
            return try EncodedTypeNotes(jsonMembers: fields.members)
        } catch {
            throw SessionEventDecodingError(
                path: "typeNotes.\(error.member)",
                message: error.member == "identityKeys"
                    ? "is not an array of [path, member] pairs (a path is an array of member names, [] and {})"
                    : "is not an array of paths (each an array of member names, [] and {})")
        }
    }

    /// The header's `app.commit`: empty when absent, else a git commit id.
    private static func commit(_ app: EventFields) throws(SessionEventDecodingError) -> String {
        guard let commit = try app.optionalString("commit") else { return "" }
        guard AppInfo.isCommitID(commit) else {
            throw SessionEventDecodingError(
                path: "app.commit",
                message: "is '\(commit.escapingControls())'; expected a git commit id: 40 or 64 lowercase hex digits")
        }
        return commit
    }

    private static func redaction(_ fields: EventFields?) throws(SessionEventDecodingError) -> Redaction {
        guard let fields else { return Redaction() }
        return Redaction(
            state: try fields.optionalStrings("state") ?? [], actions: try fields.optionalStrings("action") ?? [],
            calls: try fields.optionalStrings("calls") ?? [], notes: try fields.optionalStrings("notes") ?? [])
    }

    private static func action(
        _ fields: EventFields, _ line: ActionLineMembers
    ) throws(SessionEventDecodingError) -> ActionEvent {
        let origin = try self.origin(fields, line)
        let sequence = try sequenceNumber(fields.integer("seq", line.seq), at: "seq")
        let patch: JSONPatch?
        let state: JSONValue
        switch (line.state, line.patch) {
        case (let full?, nil):
            state = full
            patch = nil
        case (nil, let operations?):
            state = .null
            patch = try JSONPatch(jsonValue: operations, path: "patch")
        case (nil, nil):
            throw SessionEventDecodingError(path: "state", message: "is missing (an action line has 'state' or 'patch')")
        case (_?, _?):
            throw SessionEventDecodingError(path: "patch", message: "cannot stand beside 'state'; a line has one of them")
        }
        return ActionEvent(
            sequence: sequence,
            time: try fields.number("time", line.time),
            name: try fields.optionalString("name", line.name) ?? "",
            action: try fields.value("action", line.action),
            origin: origin,
            state: state,
            patch: patch,
            effect: try fields.optionalString("effect", line.effect))
    }

    /// An action line's `origin` (and `cause`).
    private static func origin(
        _ fields: EventFields, _ line: ActionLineMembers
    ) throws(SessionEventDecodingError) -> ActionEvent.Origin {
        let originText = try fields.optionalString("origin", line.origin) ?? "app"
        switch originText {
        case "app": return .app
        case "effect": return .effect(cause: try fields.optionalInteger("cause", line.cause))
        default:
            throw SessionEventDecodingError(
                path: fields.path("origin"), message: "is '\(originText.escapingControls())'; expected 'app' or 'effect'")
        }
    }

    /// A gap's kept action, at `index` in its `actions`: the members of an action line without `kind` and with no
    /// state, numbered `sequence`.
    private static func keptAction(
        _ value: JSONValue, index: Int, sequence expected: Int
    ) throws(SessionEventDecodingError) -> ActionEvent {
        let path = "actions[\(index)]"
        guard case .object(let members) = value else {
            throw SessionEventDecodingError(path: path, message: "expected an object (a kept action), found \(value.typeName)")
        }
        let fields = EventFields(members: members, prefix: path)
        let line = ActionLineMembers(members)
        for member in ["kind", "state", "patch"] where members[member] != nil {
            throw SessionEventDecodingError(
                path: fields.path(member), message: "cannot be in a gap's kept action, which has no state of its own")
        }
        let origin = try self.origin(fields, line)
        let sequence = try fields.integer("seq", line.seq)
        guard sequence == expected else {
            throw SessionEventDecodingError(
                path: fields.path("seq"),
                message: "is \(sequence); a gap's kept actions number each of its sequence numbers in order, so "
                    + "this one is \(expected)")
        }
        return ActionEvent(
            sequence: sequence, time: try fields.number("time", line.time),
            name: try fields.optionalString("name", line.name) ?? "", action: try fields.value("action", line.action),
            origin: origin, state: .null, effect: try fields.optionalString("effect", line.effect))
    }

    /// Reads an action line from the top-level members ``JSONLineScanner`` found in it, the line being valid JSON:
    /// its fields are built from their own bytes, and its `state` object is left unbuilt, an empty object in its
    /// place. The event, or the error, is the one ``init(jsonValue:)`` gives for the whole line.
    /// - Returns: The event and where the line holds its state; `nil` when the line is not plainly an action with a
    ///   state object (its `kind` spelled otherwise, a `patch`), which only the whole line's value can tell.
    static func scannedAction(
        _ members: [JSONLineScanner.Member], in line: UnsafeBufferPointer<UInt8>, memory: inout JSONParserMemory,
        recent: inout RecentValues
    ) throws(SessionEventDecodingError) -> (event: SessionEvent, state: Range<Int>)? {
        var found = ActionLineMembers()
        guard found.read(scanned: members, in: line, memory: &memory, recent: &recent), let state = found.stateRange
        else { return nil }
        return (.action(try action(EventFields(members: [:], prefix: ""), found)), state)
    }

    private static func gap(_ fields: EventFields) throws(SessionEventDecodingError) -> GapEvent {
        let first = try sequenceNumber(fields.integer("from"), at: "from")
        let last = try sequenceNumber(fields.integer("to"), at: "to")
        guard last >= first else {
            throw SessionEventDecodingError(path: "to", message: "gap from \(first) to \(last) is not a valid range")
        }
        if let count = try fields.optionalInteger("count"), count != last - first + 1 {
            // Two answers to how many actions are missing: neither is taken over the other.
            throw SessionEventDecodingError(
                path: "count", message: "is \(count), but the gap from \(first) to \(last) holds \(last - first + 1)")
        }
        let reasonText = try fields.string("reason")
        guard let reason = GapEvent.Reason(rawValue: reasonText) else {
            let known = GapEvent.Reason.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
            throw SessionEventDecodingError(path: "reason", message: "is '\(reasonText.escapingControls())'; expected one of \(known)")
        }
        let message = try fields.optionalString("message")
        var kept: [ActionEvent] = []
        if let actions = fields.members["actions"], actions != .null {
            guard case .array(let elements) = actions else {
                throw SessionEventDecodingError(path: "actions", message: "expected an array of kept actions, found \(actions.typeName)")
            }
            guard elements.count == last - first + 1 else {
                throw SessionEventDecodingError(
                    path: "actions",
                    message: "holds \(elements.count) actions; a gap keeps none or all it covers, and the gap from "
                        + "\(first) to \(last) covers \(last - first + 1)")
            }
            kept.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                kept.append(try keptAction(element, index: index, sequence: first + index))
            }
        }
        return GapEvent(firstSequence: first, lastSequence: last, reason: reason, message: message, actions: kept)
    }

    private static func end(_ fields: EventFields) throws(SessionEventDecodingError) -> EndEvent {
        let reasonText = try fields.string("reason")
        guard let reason = EndEvent.Reason(rawValue: reasonText) else {
            let known = EndEvent.Reason.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
            throw SessionEventDecodingError(path: "reason", message: "is '\(reasonText.escapingControls())'; expected one of \(known)")
        }
        let actions = try fields.integer("actions")
        guard (0...SessionFormat.sequenceNumbers.upperBound).contains(actions) else {
            throw SessionEventDecodingError(
                path: "actions",
                message: "is \(actions); a count of actions runs from 0 to \(SessionFormat.sequenceNumbers.upperBound), "
                    + "the largest sequence number")
        }
        return EndEvent(
            reason: reason,
            actions: actions,
            dropped: try fields.optionalInteger("dropped") ?? 0,
            time: try fields.number("time"))
    }
}

extension SessionEvent {
    private static func call(_ fields: EventFields) throws(SessionEventDecodingError) -> EffectCallEvent {
        let (cause, effect) = try runKey(fields)
        let index = try fields.integer("index")
        guard index >= 0 else {
            throw SessionEventDecodingError(path: "index", message: "is \(index); a run's calls count from 0")
        }
        let name = try fields.string("name")
        if name.hasPrefix("$"), EffectCallEvent.BuiltIn(rawValue: name) == nil {
            let known = EffectCallEvent.BuiltIn.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
            throw SessionEventDecodingError(
                path: "name", message: "is '\(name.escapingControls())'; names starting with '$' are built in: \(known)")
        }
        return EffectCallEvent(
            cause: cause, effect: effect, index: index, name: name, time: try fields.number("time"),
            input: fields.members["input"], result: try callResult(fields.object("result")))
    }

    private static func callResult(_ fields: EventFields) throws(SessionEventDecodingError) -> EffectCallResult {
        guard fields.members.count == 1, let (key, value) = fields.members.first else {
            throw SessionEventDecodingError(
                path: "result", message: "has \(fields.members.count) members; expected one of 'value', 'error' or 'cancelled'")
        }
        switch key {
        case "value":
            return .value(value)
        case "error":
            let error = try fields.object("error")
            return .error(
                RecordedCallError(
                    type: try error.string("type"), message: try error.string("message"), value: error.members["value"]))
        case "cancelled":
            guard value == .bool(true) else {
                throw SessionEventDecodingError(path: "result.cancelled", message: "is \(value.typeName); expected true")
            }
            return .cancelled
        default:
            throw SessionEventDecodingError(
                path: "result", message: "has '\(key.escapingControls())'; expected one of 'value', 'error' or 'cancelled'")
        }
    }

    private static func effectEnd(_ fields: EventFields) throws(SessionEventDecodingError) -> EffectEndEvent {
        let (cause, effect) = try runKey(fields)
        let outcomeText = try fields.string("outcome")
        guard let outcome = EffectEndEvent.Outcome(rawValue: outcomeText) else {
            let known = EffectEndEvent.Outcome.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
            throw SessionEventDecodingError(
                path: "outcome", message: "is '\(outcomeText.escapingControls())'; expected one of \(known)")
        }
        let calls = try fields.integer("calls")
        let sent = try fields.integer("sent")
        guard calls >= 0 else { throw SessionEventDecodingError(path: "calls", message: "is \(calls); expected 0 or more") }
        guard sent >= 0 else { throw SessionEventDecodingError(path: "sent", message: "is \(sent); expected 0 or more") }
        return EffectEndEvent(
            cause: cause, effect: effect, outcome: outcome, calls: calls, sent: sent, time: try fields.number("time"))
    }

    private static func note(_ fields: EventFields) throws(SessionEventDecodingError) -> NoteEvent {
        let time = try fields.number("time")
        guard time >= 0 else { throw SessionEventDecodingError(path: "time", message: "is \(time); expected 0 or more") }
        let message = try fields.string("message")
        var labels: [String: String] = [:]
        if let object = try fields.optionalObject("fields") {
            for key in object.members.keys.sorted() { labels[key] = try object.string(key) }
        }
        return NoteEvent(time: time, message: message, fields: labels)
    }

    /// `value`, the sequence number at `path`, unless it is outside ``SessionFormat/sequenceNumbers``.
    private static func sequenceNumber(_ value: Int, at path: String) throws(SessionEventDecodingError) -> Int {
        let valid = SessionFormat.sequenceNumbers
        guard value >= valid.lowerBound else {
            throw SessionEventDecodingError(path: path, message: "is \(value); sequence numbers start at \(valid.lowerBound)")
        }
        guard value <= valid.upperBound else {
            throw SessionEventDecodingError(
                path: path,
                message: "is \(value); sequence numbers go up to \(valid.upperBound) (2^53 - 1, the largest integer "
                    + "every JSON reader reads exactly)")
        }
        return value
    }

    /// The run an effect line belongs to: the cause's sequence number and the effect's name.
    private static func runKey(_ fields: EventFields) throws(SessionEventDecodingError) -> (Int, String) {
        let cause = try sequenceNumber(fields.integer("cause"), at: "cause")
        let effect = try fields.string("effect")
        guard !effect.isEmpty else { throw SessionEventDecodingError(path: "effect", message: "is empty (an effect has a name)") }
        return (cause, effect)
    }
}

/// A session line that is JSON but not a valid event: the field's JSON path and what is wrong with it.
public struct SessionEventDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The JSON path of the offending field, such as `app.name`; empty for the whole line.
    public var path: String
    /// What is wrong, such as `is missing (expected a string)`.
    public var message: String

    /// Creates an error for the field at `path`.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `field 'app.name' is missing (expected a string)`, or the message alone for the whole line.
    public var description: String {
        path.isEmpty ? message : "field '\(path)' \(message)"
    }
}

/// Typed access to an event's members, with errors that name the field's path.
private struct EventFields {
    let members: [String: JSONValue]
    let prefix: String

    /// The JSON path of member `key`.
    func path(_ key: String) -> String { prefix.isEmpty ? key : "\(prefix).\(key)" }

    func value(_ key: String) throws(SessionEventDecodingError) -> JSONValue {
        try value(key, members[key])
    }

    /// Member `key`'s value `found` (`nil` when the object has none), which must be there.
    func value(_ key: String, _ found: JSONValue?) throws(SessionEventDecodingError) -> JSONValue {
        guard let found else {
            throw SessionEventDecodingError(path: path(key), message: "is missing")
        }
        return found
    }

    private func mismatch(_ key: String, _ expected: String, _ found: JSONValue) -> SessionEventDecodingError {
        SessionEventDecodingError(path: path(key), message: "expected \(expected), found \(found.typeName)")
    }

    func string(_ key: String) throws(SessionEventDecodingError) -> String {
        try string(key, members[key])
    }

    /// Member `key`'s value `found`, which must be a string.
    func string(_ key: String, _ found: JSONValue?) throws(SessionEventDecodingError) -> String {
        guard let found else {
            throw SessionEventDecodingError(path: path(key), message: "is missing (expected a string)")
        }
        return try stringValue(key, found)
    }

    func optionalString(_ key: String) throws(SessionEventDecodingError) -> String? {
        try optionalString(key, members[key])
    }

    /// Member `key`'s value `found`, which must be a string, `null` or absent.
    func optionalString(_ key: String, _ found: JSONValue?) throws(SessionEventDecodingError) -> String? {
        guard let found, found != .null else { return nil }
        return try stringValue(key, found)
    }

    private func stringValue(_ key: String, _ value: JSONValue) throws(SessionEventDecodingError) -> String {
        guard case .string(let string) = value else { throw mismatch(key, "a string", value) }
        return string
    }

    func integer(_ key: String) throws(SessionEventDecodingError) -> Int {
        try integer(key, members[key])
    }

    /// Member `key`'s value `found`, which must be an integer.
    func integer(_ key: String, _ found: JSONValue?) throws(SessionEventDecodingError) -> Int {
        guard let found else {
            throw SessionEventDecodingError(path: path(key), message: "is missing (expected an integer)")
        }
        return try integerValue(key, found)
    }

    func optionalInteger(_ key: String) throws(SessionEventDecodingError) -> Int? {
        try optionalInteger(key, members[key])
    }

    /// Member `key`'s value `found`, which must be an integer, `null` or absent.
    func optionalInteger(_ key: String, _ found: JSONValue?) throws(SessionEventDecodingError) -> Int? {
        guard let found, found != .null else { return nil }
        return try integerValue(key, found)
    }

    private func integerValue(_ key: String, _ value: JSONValue) throws(SessionEventDecodingError) -> Int {
        guard case .integer(let integer) = value, let result = Int(exactly: integer) else {
            throw mismatch(key, "an integer", value)
        }
        return result
    }

    func number(_ key: String) throws(SessionEventDecodingError) -> Double {
        try number(key, members[key])
    }

    /// Member `key`'s value `found`, which must be a number.
    func number(_ key: String, _ found: JSONValue?) throws(SessionEventDecodingError) -> Double {
        guard let found else {
            throw SessionEventDecodingError(path: path(key), message: "is missing (expected a number)")
        }
        guard let number = found.doubleValue else { throw mismatch(key, "a number", found) }
        return number
    }

    func object(_ key: String) throws(SessionEventDecodingError) -> EventFields {
        guard let value = members[key] else {
            throw SessionEventDecodingError(path: path(key), message: "is missing (expected an object)")
        }
        guard case .object(let nested) = value else { throw mismatch(key, "an object", value) }
        return EventFields(members: nested, prefix: path(key))
    }

    func optionalStrings(_ key: String) throws(SessionEventDecodingError) -> [String]? {
        guard let value = members[key], value != .null else { return nil }
        guard case .array(let elements) = value else { throw mismatch(key, "an array of strings", value) }
        var strings: [String] = []
        for (index, element) in elements.enumerated() {
            guard case .string(let string) = element else { throw mismatch("\(key)[\(index)]", "a string", element) }
            strings.append(string)
        }
        return strings
    }

    func optionalObject(_ key: String) throws(SessionEventDecodingError) -> EventFields? {
        guard let value = members[key], value != .null else { return nil }
        return try object(key)
    }
}

/// The members of a line that an action line may have, found in one pass over its object: a line is read for every
/// step of a replay, and a dictionary lookup per field would hash each field's name again (docs/performance.md).
private struct ActionLineMembers {
    var kind, origin, cause, seq, state, patch, time, name, action, effect: JSONValue?
    /// Where the line holds its state, for one read from its scan.
    var stateRange: Range<Int>?

    /// No members yet.
    init() {}

    init(_ members: [String: JSONValue]) {
        for (key, value) in members {
            switch key {
            case "kind": kind = value
            case "origin": origin = value
            case "cause": cause = value
            case "seq": seq = value
            case "state": state = value
            case "patch": patch = value
            case "time": time = value
            case "name": name = value
            case "action": action = value
            case "effect": effect = value
            default: continue
            }
        }
    }

    /// The members of an action line whose values a scanned line builds from their bytes.
    private enum Field {
        case seq, time, name, cause, action, origin, effect
    }

    private mutating func set(_ field: Field, _ value: JSONValue) {
        switch field {
        case .seq: seq = value
        case .time: time = value
        case .name: name = value
        case .cause: cause = value
        case .action: action = value
        case .origin: origin = value
        case .effect: effect = value
        }
    }

    /// Reads the members of a scanned line (see ``SessionEvent/scannedAction(_:in:memory:recent:)``) into these
    /// empty ones, with its state object as an empty one and where that object lies in ``stateRange``.
    /// - Returns: Whether the line's `kind` is `"action"` as those bytes, it has a `state` object and no `patch`.
    mutating func read(
        scanned members: [JSONLineScanner.Member], in line: UnsafeBufferPointer<UInt8>, memory: inout JSONParserMemory,
        recent: inout RecentValues
    ) -> Bool {
        // Read in place rather than returned as an optional: an initializer's `self`, or a value returned, was
        // copied into the optional, all its members with it (docs/performance.md).
        for member in members {
            let key = UnsafeBufferPointer(rebasing: line[member.key])
            let field: Field
            switch key.count {
            case 3 where Self.bytes(key, are: "seq"): field = .seq
            case 4 where Self.bytes(key, are: "kind"):
                guard Self.bytes(UnsafeBufferPointer(rebasing: line[member.value]), are: #""action""#) else { return false }
                kind = .string("action")
                continue
            case 4 where Self.bytes(key, are: "time"): field = .time
            case 4 where Self.bytes(key, are: "name"): field = .name
            case 5 where Self.bytes(key, are: "state"):
                guard member.type == .object else { return false }
                state = .object([:])
                stateRange = member.value
                continue
            case 5 where Self.bytes(key, are: "patch"): return false
            case 5 where Self.bytes(key, are: "cause"): field = .cause
            case 6 where Self.bytes(key, are: "action"): field = .action
            case 6 where Self.bytes(key, are: "origin"): field = .origin
            case 6 where Self.bytes(key, are: "effect"): field = .effect
            default: continue
            }
            // The usual origin, compared rather than built.
            if field == .origin && Self.bytes(UnsafeBufferPointer(rebasing: line[member.value]), are: #""app""#) {
                origin = .string("app")
                continue
            }
            guard let value = JSONLineScanner.value(of: member, in: line, memory: &memory, recent: &recent) else { return false }
            set(field, value)
        }
        return kind != nil && stateRange != nil
    }

    /// Whether `bytes` are exactly `text`'s UTF-8.
    @inline(__always)
    private static func bytes(_ bytes: UnsafeBufferPointer<UInt8>, are text: StaticString) -> Bool {
        bytes.count == text.utf8CodeUnitCount && memcmp(bytes.baseAddress!, text.utf8Start, bytes.count) == 0
    }
}
