import StoreKitJSON

/// Which parts of a store's state and actions are secret, so that their values never leave the app process.
///
/// Paths name JSON members of the encoded state or action: keys separated by dots, `[]` (or `[*]`) for every
/// element of an array, `*` for every member of an object. An action's JSON starts with its case name, so
/// `login.password` is the `password` of `case login(user: String, password: String)`, and `setToken._0` the
/// unlabelled value of `case setToken(String)`. Paths may be written as diffs print them, without the `_0` of an
/// unlabelled payload: a name an object lacks is looked up inside its `_0` member, so `account.token` reaches the
/// token of `case account(Account)`, written `{"account": {"_0": {"token": …}}}`; and `.1` names the second
/// unlabelled payload, `_1`.
///
/// The recorder replaces each secret value before it is written anywhere, keeping its JSON type so the state
/// still decodes: strings become `"<redacted>"`, numbers `0`, booleans `false`, and the values inside arrays and
/// objects are replaced one by one. The session header lists the paths, and replay masks the same paths of every
/// replayed state before comparing, so a secret can never cause a false divergence. A value the reducers compute
/// from a secret (a token's length, a hash of a password) replays from the placeholder: mark it secret too.
///
/// ```swift
/// let recorder = store.startRecording(
///     .init(storeID: "account", app: AppInfo(name: "Bank"),
///           redaction: Redaction(state: ["session.token", "cards[].number"], actions: ["login.password"])),
///     to: UnixSocketTransport())
/// ```
///
/// An effect's recorded calls are redacted by call paths: the call's name, a colon, then a path into the line's
/// `{"input": …, "result": …}`, such as `auth.login:result.value.token` (the `token` of what `auth.login` returned)
/// or `auth.login:input.password` (the `password` it was passed).
///
/// A note's fields and message are redacted by note paths: paths into the line's `{"message": …, "fields": {…}}`,
/// such as `fields.authorization` (that field of every note), `fields.*` (every field) or `message`.
public struct Redaction: Sendable, Hashable {
    /// The placeholder a secret string becomes.
    public static let placeholder = "<redacted>"

    /// Paths into the state whose values are secret.
    public var statePaths: [String]
    /// Paths into each action whose values are secret.
    public var actionPaths: [String]
    /// Paths into effects' recorded calls whose values are secret: `<call name>:<path into {input, result}>`.
    public var callPaths: [String]
    /// Paths into each note (``NoteEvent``) whose values are secret: into `{"message": …, "fields": {…}}`.
    public var notePaths: [String]

    /// Creates a redaction.
    /// - Parameters:
    ///   - state: Paths into the encoded state, such as `"session.token"` or `"users[].password"`.
    ///   - actions: Paths into the encoded actions, starting with the case name, such as `"login.password"`.
    ///   - calls: Paths into effects' recorded calls, the call's name before a colon, such as
    ///     `"auth.login:result.value.token"` or `"auth.login:input.password"`.
    ///   - notes: Paths into each note's `{"message": …, "fields": {…}}`, such as `"fields.authorization"`,
    ///     `"fields.*"` or `"message"`.
    public init(state: [String] = [], actions: [String] = [], calls: [String] = [], notes: [String] = []) {
        self.statePaths = state
        self.actionPaths = actions
        self.callPaths = calls
        self.notePaths = notes
    }

    /// True when nothing is secret.
    public var isEmpty: Bool { statePaths.isEmpty && actionPaths.isEmpty && callPaths.isEmpty && notePaths.isEmpty }

    /// `state` with every secret value replaced.
    public func redactingState(_ state: JSONValue) -> JSONValue {
        Self.redact(state, paths: statePaths)
    }

    /// `action` with every secret value replaced.
    public func redactingAction(_ action: JSONValue) -> JSONValue {
        Self.redact(action, paths: actionPaths)
    }

    /// `call` with every secret value of its input and result replaced, by the call paths that name its call.
    public func redactingCall(_ call: EffectCallEvent) -> EffectCallEvent {
        var line: [String: JSONValue] = ["result": call.result.jsonValue]
        if let input = call.input { line["input"] = input }
        var redacted = JSONValue.object(line)
        for path in callPaths {
            guard let colon = path.firstIndex(of: ":"), path[..<colon] == call.name else { continue }
            redacted = Self.redact(redacted, at: path[path.index(after: colon)...])
        }
        var call = call
        call.input = call.input.map { _ in redacted["input"] ?? .null }
        call.result = EffectCallResult(redacting: redacted["result"]) ?? call.result
        return call
    }

    /// `note` with every secret value of its message and fields replaced, by the note paths.
    public func redactingNote(_ note: NoteEvent) -> NoteEvent {
        let line = JSONValue.object([
            "message": .string(note.message), "fields": .object(note.fields.mapValues(JSONValue.string)),
        ])
        let redacted = Self.redact(line, paths: notePaths)
        var note = note
        note.message = redacted["message"]?.stringValue ?? note.message
        if case .object(let fields)? = redacted["fields"] {
            note.fields = fields.mapValues { $0.stringValue ?? Self.placeholder }
        }
        return note
    }

    private static func redact(_ value: JSONValue, paths: [String]) -> JSONValue {
        paths.reduce(value) { value, path in redact(value, at: Substring(path)) }
    }

    /// Replaces what `path` names inside `value`.
    private static func redact(_ value: JSONValue, at path: Substring) -> JSONValue {
        guard !path.isEmpty else { return placeholder(for: value) }
        if path.hasPrefix("[]") || path.hasPrefix("[*]") {
            guard case .array(let elements) = value else { return value }
            let rest = path.dropFirst(path.hasPrefix("[]") ? 2 : 3).drop { $0 == "." }
            return .array(elements.map { redact($0, at: rest) })
        }
        let keyEnd = path.firstIndex { $0 == "." || $0 == "[" } ?? path.endIndex
        let key = path[..<keyEnd]
        let rest = path[keyEnd...].drop { $0 == "." }
        guard case .object(var members) = value else { return value }
        if key == "*" {
            for (name, member) in members { members[name] = redact(member, at: rest) }
        } else if let member = members[String(key)] {
            members[String(key)] = redact(member, at: rest)
        } else if key.utf8.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }), let payload = members["_" + key] {
            // `.1` is how a diff prints a case's second unlabelled payload, `_1`.
            members["_" + key] = redact(payload, at: rest)
        } else if let payload = members["_0"] {
            // An unlabelled payload, left out of the path as diffs print it.
            members["_0"] = redact(payload, at: path)
        }
        return .object(members)
    }

    /// A value of the same JSON type that carries nothing of the secret.
    private static func placeholder(for value: JSONValue) -> JSONValue {
        switch value {
        case .null: .null
        case .bool: .bool(false)
        case .integer, .unsignedInteger, .bigInteger: .integer(0)
        case .double: .double(0)
        case .string: .string(placeholder)
        case .array(let elements): .array(elements.map(placeholder(for:)))
        case .object(let members): .object(members.mapValues(placeholder(for:)))
        }
    }
}

extension EffectCallResult {
    /// The result a redacted `{"value"}`, `{"error"}` or `{"cancelled"}` object holds, keeping its JSON types.
    fileprivate init?(redacting result: JSONValue?) {
        guard case .object(let members)? = result else { return nil }
        if let value = members["value"] {
            self = .value(value)
        } else if case .object(let error)? = members["error"] {
            self = .error(
                RecordedCallError(
                    type: error["type"]?.stringValue ?? "", message: error["message"]?.stringValue ?? "",
                    value: error["value"]))
        } else if members["cancelled"] != nil {
            self = .cancelled
        } else {
            return nil
        }
    }
}
