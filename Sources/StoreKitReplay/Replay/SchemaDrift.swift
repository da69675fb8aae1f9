import StoreKitCore
import StoreKitJSON

/// Every kind of recorded value that no longer decodes under the current types, reported as a whole, the way
/// Elm's debugger reports a changed message type: which action cases and state fields, how often, where first.
public struct SchemaDrift: Sendable, Equatable {
    /// One kind of value that no longer decodes.
    public struct Entry: Sendable, Equatable {
        /// Actions, recorded states or the initial state.
        public var part: Undecodable.Part
        /// For actions, the case name; for states, empty.
        public var caseName: String
        /// The JSON path where decoding failed, with array indexes written `[*]` so alike failures group.
        public var path: String
        /// What the decoder said the first time.
        public var message: String
        /// How many recorded values fail this way.
        public var count: Int
        /// The first step where it happens (0 for the initial state).
        public var firstStep: Int
    }

    /// What to do about drift.
    public enum Advice: Sendable, Equatable {
        /// Only recorded states drift, and every action and the initial state decode: `replay-cli update`
        /// re-records the states (with `--migrate` when the session is of another schema version than the store).
        case rerecordStates(migrating: Bool)
        /// Actions or the initial state drift and the store has no migration from the session's schema version:
        /// write one (declare the store's new schema version and a `migrate:` function).
        case writeMigration(storeID: String, sessionSchema: String, storeSchema: String?)
        /// The store's migration from the session's schema version ran and left values that do not decode.
        case extendMigration(storeID: String, sessionSchema: String, storeSchema: String)
        /// Every action that drifts (and no initial state) is of a type its ``RegisteredAction``'s registry does not
        /// list: register each type (or, when it was renamed or removed since, migrate its actions).
        case registerActionTypes([UnregisteredActionType])

        /// What to do, in a sentence.
        public var text: String {
            switch self {
            case .rerecordStates(let migrating):
                "only recorded states no longer decode, and every action does: 'replay-cli update\(migrating ? " --migrate" : "") <session>' re-records the states with the current reducers"
            case .writeMigration(let store, let session, let current):
                "write a migration for store '\(store)': give its ReplayableStore a schemaVersion\(current.map { " newer than '\($0)'" } ?? "") and a migrate: function that brings values \(session.isEmpty ? "recorded without a schema version" : "of schema '\(session)'") up to date (docs/migrations.md)"
            case .extendMigration(let store, let session, let current):
                "extend the migration of store '\(store)' from schema '\(session)' to '\(current)': it leaves these values undecodable (docs/migrations.md)"
            case .registerActionTypes(let types):
                Self.registering(types)
            }
        }

        /// The advice as data: `kind`, and `store`, `from` and `to` where they apply, and ``text``.
        public var jsonValue: JSONValue {
            switch self {
            case .rerecordStates(let migrating):
                .object(["kind": .string("rerecordStates"), "migrate": .bool(migrating), "text": .string(text)])
            case .writeMigration(let store, let session, let current):
                .object([
                    "kind": .string("writeMigration"), "store": .string(store), "from": .string(session),
                    "to": current.map(JSONValue.string) ?? .null, "text": .string(text),
                ])
            case .extendMigration(let store, let session, let current):
                .object([
                    "kind": .string("extendMigration"), "store": .string(store), "from": .string(session),
                    "to": .string(current), "text": .string(text),
                ])
            case .registerActionTypes(let types):
                .object([
                    "kind": .string("registerActionTypes"),
                    "types": .array(
                        types.map { .object(["type": .string($0.typeName), "registry": .string($0.registry)]) }),
                    "text": .string(text),
                ])
            }
        }

        /// Reads advice written by ``jsonValue``; `nil` when it is not advice.
        init?(jsonValue: JSONValue) {
            let store = jsonValue["store"]?.stringValue ?? ""
            let from = jsonValue["from"]?.stringValue ?? ""
            switch jsonValue["kind"]?.stringValue {
            case "rerecordStates": self = .rerecordStates(migrating: jsonValue["migrate"] == .bool(true))
            case "writeMigration": self = .writeMigration(storeID: store, sessionSchema: from, storeSchema: jsonValue["to"]?.stringValue)
            case "extendMigration": self = .extendMigration(storeID: store, sessionSchema: from, storeSchema: jsonValue["to"]?.stringValue ?? "")
            case "registerActionTypes":
                self = .registerActionTypes(
                    (jsonValue["types"]?.arrayValue ?? []).map { type in
                        UnregisteredActionType(
                            typeName: type["type"]?.stringValue ?? "", registry: type["registry"]?.stringValue ?? "")
                    })
            default: return nil
            }
        }

        /// `register the action type 'X' in AppActions.types …`, naming each type under its registry.
        private static func registering(_ types: [UnregisteredActionType]) -> String {
            var registries: [String] = []
            var names: [String: [String]] = [:]
            for type in types {
                if names[type.registry] == nil { registries.append(type.registry) }
                names[type.registry, default: []].append("'\(type.typeName.escapingControls())'")
            }
            let places = registries.map { registry in
                "\(listed(names[registry]!)) in \(registry.escapingControls()).types"
            }
            let noun = types.count == 1 ? "the action type" : "the action types"
            let pronoun = types.count == 1 ? "it was" : "they were"
            return "register \(noun) \(listed(places)): this build has no type by \(types.count == 1 ? "that name" : "those names") to decode the recorded actions with (if \(pronoun) renamed or removed since the session was recorded, write a migration instead, docs/migrations.md)"
        }

        /// `a`, `a and b`, `a, b and c`.
        private static func listed(_ items: [String]) -> String {
            items.count <= 1 ? items.joined() : items.dropLast().joined(separator: ", ") + " and " + items.last!
        }
    }

    /// The header of the checked session.
    public var header: SessionHeader
    /// The failures, grouped, in order of first appearance.
    public var entries: [Entry]
    /// How many actions and states were checked.
    public var checkedValues: Int
    /// What to do about the drift; `nil` when there is none.
    public var advice: Advice?

    /// True when everything still decodes.
    public var isEmpty: Bool { entries.isEmpty }

    /// A report for people, naming the build that recorded the session.
    public var explanation: String {
        guard !entries.isEmpty else { return "no schema drift: all \(checkedValues) recorded values decode" }
        let app = header.app
        var build = [app.version.isEmpty ? nil : app.version, app.build.isEmpty ? nil : "build \(app.build)",
            app.schemaVersion.isEmpty ? nil : "schema \(app.schemaVersion)"].compactMap { $0 }.joined(separator: ", ")
            .escapingControls()
        if !build.isEmpty { build = " (\(build))" }
        var lines = [
            "schema drift: recorded by \(app.name.escapingControls())\(build); \(entries.count) kind\(entries.count == 1 ? "" : "s") of recorded value no longer decode\(entries.count == 1 ? "s" : "") under the current types:"
        ]
        for entry in entries {
            let what: String
            switch entry.part {
            case .action: what = "action '\(entry.caseName.escapingControls())'" + (entry.path.isEmpty ? "" : " at \(entry.path)")
            case .initialState: what = "initial state" + (entry.path.isEmpty ? "" : " at \(entry.path)")
            default: what = "state" + (entry.path.isEmpty ? "" : " at \(entry.path)")
            }
            let times = entry.count == 1 ? "once" : "\(entry.count) times"
            lines.append("  \(what): \(times), first at step \(entry.firstStep): \(entry.message)")
        }
        if let advice { lines.append("what to do: \(advice.text)") }
        return lines.joined(separator: "\n")
    }

    /// The drift as JSON data.
    public var jsonValue: JSONValue {
        .object([
            "advice": advice?.jsonValue ?? .null,
            "checkedValues": .integer(Int64(checkedValues)),
            "entries": .array(
                entries.map { entry in
                    .object([
                        "part": .string(entry.part.rawValue), "case": .string(entry.caseName), "path": .string(entry.path),
                        "message": .string(entry.message), "count": .integer(Int64(entry.count)),
                        "firstStep": .integer(Int64(entry.firstStep)),
                    ])
                }),
        ])
    }

    /// Reads drift written by ``jsonValue``.
    public init(jsonValue: JSONValue, header: SessionHeader) {
        self.header = header
        self.checkedValues = Int(jsonValue["checkedValues"]?.integerValue ?? 0)
        self.entries = (jsonValue["entries"]?.arrayValue ?? []).map { entry in
            Entry(
                part: Undecodable.Part(rawValue: entry["part"]?.stringValue ?? "") ?? .action,
                caseName: entry["case"]?.stringValue ?? "", path: entry["path"]?.stringValue ?? "",
                message: entry["message"]?.stringValue ?? "", count: Int(entry["count"]?.integerValue ?? 0),
                firstStep: Int(entry["firstStep"]?.integerValue ?? 0))
        }
        self.advice = jsonValue["advice"].flatMap(Advice.init(jsonValue:))
    }

    init(header: SessionHeader, entries: [Entry], checkedValues: Int, advice: Advice?) {
        self.header = header
        self.entries = entries
        self.checkedValues = checkedValues
        self.advice = advice
    }
}

extension ReplayEngine {
    /// Checks that every recorded action and state of the session still decodes, and groups what does not.
    /// - Throws: ``SessionReadError`` when the file is not a valid session.
    public func checkDrift(reader: SessionReader) throws(SessionReadError) -> SchemaDrift? {
        guard case .header(let header) = try reader.next() else {
            throw SessionReadError(source: reader.source, line: reader.lineNumber, problem: .empty)
        }
        guard let store = stores[header.storeID] else {
            while try reader.next() != nil {}
            return nil
        }
        var drift = DriftCheck(header: header, store: store, replayer: store.replayer(for: header))
        while let event = try reader.next() {
            if case .action(let action) = event { drift.check(action) }
        }
        return drift.result
    }
    /// What to do about `entries`: re-record when only recorded states drift, register the action types when every
    /// other entry is an action of an unregistered type (`unregistered`, by entry index), else write or extend a
    /// migration.
    static func advice(
        for entries: [SchemaDrift.Entry], unregistered: [Int: UnregisteredActionType], header: SessionHeader,
        store: ReplayableStore
    ) -> SchemaDrift.Advice? {
        guard !entries.isEmpty else { return nil }
        let decodingInputs = entries.indices.filter { entries[$0].part != .recordedState }
        if !decodingInputs.isEmpty, decodingInputs.allSatisfy({ unregistered[$0] != nil }) {
            var types: [UnregisteredActionType] = []
            for index in decodingInputs where !types.contains(unregistered[index]!) { types.append(unregistered[index]!) }
            return .registerActionTypes(types)
        }
        let migration = store.sessionMigration(for: header)
        if entries.allSatisfy({ $0.part == .recordedState }) { return .rerecordStates(migrating: migration != nil) }
        if let migration {
            return .extendMigration(storeID: store.id, sessionSchema: migration.from, storeSchema: migration.to)
        }
        return .writeMigration(storeID: store.id, sessionSchema: header.app.schemaVersion, storeSchema: store.schemaVersion)
    }

    /// `todos[*].title` for `todos[3].title`, so the same failure in different elements groups.
    static func groupedPath(_ path: String) -> String {
        var result = ""
        var inIndex = false
        for character in path {
            if character == "[" {
                inIndex = true
                result.append("[")
            } else if character == "]" {
                if inIndex { result.append("*") }
                inIndex = false
                result.append("]")
            } else if !(inIndex && character.isNumber) {
                if inIndex { inIndex = false }
                result.append(character)
            }
        }
        return result
    }
}

/// Schema drift found while a session is read: each recorded value is decoded as it comes, and the failures are
/// grouped as they are found (``ReplayEngine/checkDrift(reader:)``, and the one-pass ``ReplayEngine/check(reader:contextActions:)``).
struct DriftCheck {
    private let header: SessionHeader
    private let store: ReplayableStore
    private let replayer: any StateReplayer
    private var entries: [SchemaDrift.Entry] = []
    /// The unregistered action type behind an entry, by the entry's index.
    private var unregistered: [Int: UnregisteredActionType] = [:]
    private var checked = 0

    /// Starts checking the session with `header` (its initial state first) with `replayer`, which decodes without
    /// touching its replay state.
    init(header: SessionHeader, store: ReplayableStore, replayer: any StateReplayer) {
        self.header = header
        self.store = store
        self.replayer = replayer
        check(header.initialState, .initialState, step: 0, caseName: "")
    }

    /// Checks an action and its recorded state.
    mutating func check(_ action: ActionEvent) {
        checkAction(action)
        checkRecordedState(of: action)
    }

    /// Checks an action; its recorded state is checked by ``checkRecordedState(of:)`` or ``countRecordedState()``.
    mutating func checkAction(_ action: ActionEvent) {
        check(action.action, .action, step: action.sequence, caseName: action.name)
    }

    /// Checks the recorded state of an action.
    mutating func checkRecordedState(of action: ActionEvent) {
        check(action.state, .recordedState, step: action.sequence, caseName: "")
    }

    /// Counts a recorded state as checked without decoding it again: its bytes are the canonical encoding of a state
    /// the replay holds, which the state type reads back, or replay has just read it into the state it goes on from.
    mutating func countRecordedState() {
        checked += 1
    }

    /// The drift found so far.
    var result: SchemaDrift {
        SchemaDrift(
            header: header, entries: entries, checkedValues: checked,
            advice: ReplayEngine.advice(for: entries, unregistered: unregistered, header: header, store: store))
    }

    private mutating func check(_ value: JSONValue, _ part: Undecodable.Part, step: Int, caseName: String) {
        checked += 1
        do {
            try replayer.checkDecodes(value, as: part)
        } catch {
            let path = ReplayEngine.groupedPath(error.path)
            if let index = entries.firstIndex(where: { $0.part == part && $0.caseName == caseName && $0.path == path }) {
                entries[index].count += 1
            } else {
                if let type = error.unregisteredActionType { unregistered[entries.count] = type }
                entries.append(
                    SchemaDrift.Entry(
                        part: part, caseName: caseName, path: path, message: error.message, count: 1, firstStep: step))
            }
        }
    }
}
