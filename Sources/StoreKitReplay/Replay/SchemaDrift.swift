import StoreKitCore

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

    /// The header of the checked session.
    public var header: SessionHeader
    /// The failures, grouped, in order of first appearance.
    public var entries: [Entry]
    /// How many actions and states were checked.
    public var checkedValues: Int

    /// True when everything still decodes.
    public var isEmpty: Bool { entries.isEmpty }

    /// A report for people, naming the build that recorded the session.
    public var explanation: String {
        guard !entries.isEmpty else { return "no schema drift: all \(checkedValues) recorded values decode" }
        let app = header.app
        var build = [app.version.isEmpty ? nil : app.version, app.build.isEmpty ? nil : "build \(app.build)",
            app.schemaVersion.isEmpty ? nil : "schema \(app.schemaVersion)"].compactMap { $0 }.joined(separator: ", ")
        if !build.isEmpty { build = " (\(build))" }
        var lines = [
            "schema drift: recorded by \(app.name)\(build); \(entries.count) kind\(entries.count == 1 ? "" : "s") of recorded value no longer decode\(entries.count == 1 ? "s" : "") under the current types:"
        ]
        for entry in entries {
            let what: String
            switch entry.part {
            case .action: what = "action '\(entry.caseName)'" + (entry.path.isEmpty ? "" : " at \(entry.path)")
            case .initialState: what = "initial state" + (entry.path.isEmpty ? "" : " at \(entry.path)")
            default: what = "state" + (entry.path.isEmpty ? "" : " at \(entry.path)")
            }
            let times = entry.count == 1 ? "once" : "\(entry.count) times"
            lines.append("  \(what): \(times), first at step \(entry.firstStep): \(entry.message)")
        }
        return lines.joined(separator: "\n")
    }

    /// The drift as JSON data.
    public var jsonValue: JSONValue {
        .object([
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
    }

    init(header: SessionHeader, entries: [Entry], checkedValues: Int) {
        self.header = header
        self.entries = entries
        self.checkedValues = checkedValues
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
        let replayer = store.makeReplayer(header.redaction)
        var entries: [SchemaDrift.Entry] = []
        var checked = 0
        func check(_ value: JSONValue, _ part: Undecodable.Part, step: Int, caseName: String) {
            checked += 1
            do {
                try replayer.checkDecodes(value, as: part)
            } catch {
                let path = Self.groupedPath(error.path)
                if let index = entries.firstIndex(where: { $0.part == part && $0.caseName == caseName && $0.path == path }) {
                    entries[index].count += 1
                } else {
                    entries.append(
                        SchemaDrift.Entry(
                            part: part, caseName: caseName, path: path, message: error.message, count: 1, firstStep: step))
                }
            }
        }
        check(header.initialState, .initialState, step: 0, caseName: "")
        while let event = try reader.next() {
            guard case .action(let action) = event else { continue }
            check(action.action, .action, step: action.sequence, caseName: action.name)
            check(action.state, .recordedState, step: action.sequence, caseName: "")
        }
        return SchemaDrift(header: header, entries: entries, checkedValues: checked)
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
