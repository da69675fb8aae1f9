import StoreKitCore
import StoreKitReplay
import Testing

/// A list feature at schema 2. At schema 1 an item had `label` (now `title`) and no `isPaused`, and adding one was
/// the action case `append` (now `add`).
fileprivate enum Items {
    struct Item: Codable, Equatable, Sendable {
        var id: Int
        var title: String
        var isPaused = false
    }

    struct State: Codable, Equatable, Sendable {
        var items: [Item] = []
    }

    enum Action: Codable, Equatable, Sendable {
        case add(id: Int, title: String)
        case reset
    }

    static let reducer = Reducer<State, Action> { state, action in
        switch action {
        case .add(let id, let title): state.items.append(Item(id: id, title: title))
        case .reset: state.items = []
        }
    }

    /// One edit of the migration from schema 1.
    enum Edit: String, CaseIterable, CustomTestStringConvertible {
        case addedField, renamedField, renamedCase
        var testDescription: String { rawValue }
    }

    /// The migration from schema 1 with the edits `edits`.
    static func migration(_ edits: [Edit] = Edit.allCases) -> ReplayableStore.Migration {
        { version, value in
            guard version == "1" else { return value.json }
            var json = value.json
            switch value.kind {
            case .state:
                if edits.contains(.renamedField) { json = try json.renamingMember("label", to: "title", at: "items[*]") }
                if edits.contains(.addedField) { json = try json.addingMember("isPaused", default: .bool(false), at: "items[*]") }
            case .action:
                if edits.contains(.renamedCase) { json = try json.renamingCase("append", to: "add") }
                if edits.contains(.renamedField) { json = try json.renamingMember("label", to: "title", at: "add") }
            }
            return json
        }
    }

    static func store(_ edits: [Edit] = Edit.allCases) -> ReplayableStore {
        ReplayableStore(id: "items", reducer: reducer, schemaVersion: "2", migrate: migration(edits))
    }

    static let unmigrated = ReplayableStore(id: "items", reducer: reducer)

    /// A session recorded at schema 1; step 2 holds a patch.
    static let schema1Lines = [
        #"{"kind":"session","format":1,"sessionId":"s1","storeId":"items","app":{"name":"Items","version":"1.0","build":"1","schemaVersion":"1"},"startedAt":"2026-01-01T00:00:00.000Z","host":"h","pid":1,"initialState":{"items":[]},"metadata":{}}"#,
        #"{"kind":"action","seq":1,"time":0.1,"name":"append","origin":"app","action":{"append":{"id":1,"label":"a"}},"state":{"items":[{"id":1,"label":"a"}]}}"#,
        #"{"kind":"action","seq":2,"time":0.2,"name":"append","origin":"app","action":{"append":{"id":2,"label":"b"}},"patch":[{"op":"add","path":"/items/1","value":{"id":2,"label":"b"}}]}"#,
        #"{"kind":"action","seq":3,"time":0.3,"name":"reset","origin":"app","action":{"reset":{}},"state":{"items":[]}}"#,
        #"{"kind":"end","reason":"finished","actions":3,"dropped":0,"time":0.4}"#,
    ]

    static func bytes(_ lines: [String]) -> [UInt8] { Array(lines.map { $0 + "\n" }.joined().utf8) }

    static func schema1Session() throws -> Session { try Session(ndjson: bytes(schema1Lines)) }
}

@Suite struct ReplayEngineMigrationTests {
    @Test func anOldSessionIsUndecodableWithoutAMigration() throws {
        let report = ReplayEngine(stores: [Items.unmigrated]).replay(try Items.schema1Session())
        guard case .undecodable(let failure) = report.verdict else {
            Issue.record("expected undecodable, got \(report.verdict)")
            return
        }
        #expect(failure.part == .action)
        #expect(failure.step == 1)
    }

    @Test func anOldSessionReplaysAsAMatchAfterTheMigration() throws {
        let report = ReplayEngine(stores: [Items.store()]).replay(try Items.schema1Session())
        #expect(report.verdict == .match)
        #expect(report.stepsMatched == 3)
    }

    @Test(arguments: Items.Edit.allCases)
    fileprivate func eachEditOfTheMigrationIsNeeded(_ missing: Items.Edit) throws {
        // Given a migration without one of its edits
        let store = Items.store(Items.Edit.allCases.filter { $0 != missing })

        // Then the old session no longer decodes
        let report = ReplayEngine(stores: [store]).replay(try Items.schema1Session())
        #expect(report.verdict.name == "undecodable")
    }

    @Test func aSessionOfTheStoresSchemaIsNotMigrated() throws {
        // Given the session as schema 2 claims it, its old JSON unchanged
        var lines = Items.schema1Lines
        lines[0] = lines[0].replacingOccurrences(of: #""schemaVersion":"1""#, with: #""schemaVersion":"2""#)
        let report = ReplayEngine(stores: [Items.store()]).replay(try Session(ndjson: Items.bytes(lines)))
        #expect(report.verdict.name == "undecodable")
    }

    @Test func aMigrationThatThrowsMakesTheValueUndecodableWithItsError() throws {
        struct Refused: Error, CustomStringConvertible { var description: String { "schema 1 is too old" } }
        let store = ReplayableStore(id: "items", reducer: Items.reducer, schemaVersion: "2") { _, _ in throw Refused() }
        let report = ReplayEngine(stores: [store]).replay(try Items.schema1Session())
        guard case .undecodable(let failure) = report.verdict else {
            Issue.record("expected undecodable, got \(report.verdict)")
            return
        }
        #expect(failure.part == .initialState)
        #expect(failure.message == "the migration from schema '1' to '2' failed: schema 1 is too old")
    }

    @Test func driftWithoutAMigrationAdvisesWritingOneNamingTheStoreAndVersions() throws {
        let drift = try ReplayEngine(stores: [Items.unmigrated])
            .checkDrift(reader: SessionReader(bytes: Items.bytes(Items.schema1Lines), source: "s"))
        #expect(drift?.advice == .writeMigration(storeID: "items", sessionSchema: "1", storeSchema: nil))
        #expect(drift?.explanation.hasSuffix(
            "what to do: write a migration for store 'items': give its ReplayableStore a schemaVersion and a migrate: "
                + "function that brings values of schema '1' up to date (docs/migrations.md)") == true)
        #expect(drift.map { SchemaDrift(jsonValue: $0.jsonValue, header: $0.header) } == drift)
    }

    @Test func driftOfActionsLeftByAMigrationAdvisesExtendingIt() throws {
        let drift = try ReplayEngine(stores: [Items.store([.addedField, .renamedField])])
            .checkDrift(reader: SessionReader(bytes: Items.bytes(Items.schema1Lines), source: "s"))
        #expect(drift?.advice == .extendMigration(storeID: "items", sessionSchema: "1", storeSchema: "2"))
        #expect(drift?.advice?.text == "extend the migration of store 'items' from schema '1' to '2': it leaves these values undecodable (docs/migrations.md)")
    }

    @Test func driftOfStatesAloneLeftByAMigrationAdvisesUpdateWithMigrate() throws {
        // Given a migration that forgets the added field: only recorded states drift (the initial state has no items)
        let drift = try ReplayEngine(stores: [Items.store([.renamedCase, .renamedField])])
            .checkDrift(reader: SessionReader(bytes: Items.bytes(Items.schema1Lines), source: "s"))
        #expect(drift?.entries.map(\.part) == [.recordedState])
        #expect(drift?.advice == .rerecordStates(migrating: true))
        #expect(drift?.advice?.text.contains("'replay-cli update --migrate <session>'") == true)
    }

    @Test func driftOfRecordedStatesAloneAdvisesUpdate() throws {
        // Given a schema-2 session whose recorded states lack isPaused (the initial state and actions decode)
        var lines = Items.schema1Lines
        lines[0] = lines[0].replacingOccurrences(of: #""schemaVersion":"1""#, with: #""schemaVersion":"2""#)
        lines[1] = #"{"kind":"action","seq":1,"time":0.1,"name":"add","origin":"app","action":{"add":{"id":1,"title":"a"}},"state":{"items":[{"id":1,"title":"a"}]}}"#
        lines[2] = #"{"kind":"action","seq":2,"time":0.2,"name":"add","origin":"app","action":{"add":{"id":2,"title":"b"}},"state":{"items":[{"id":1,"title":"a"},{"id":2,"title":"b"}]}}"#
        let drift = try ReplayEngine(stores: [Items.store()])
            .checkDrift(reader: SessionReader(bytes: Items.bytes(lines), source: "s"))
        #expect(drift?.advice == .rerecordStates(migrating: false))
        #expect(drift?.explanation.hasSuffix(
            "what to do: only recorded states no longer decode, and every action does: 'replay-cli update <session>' "
                + "re-records the states with the current reducers") == true)
    }

    @Test func rerecordingWithMigrationWritesTheSessionAtTheStoresSchemaKeepingItsLayout() throws {
        let engine = ReplayEngine(stores: [Items.store()])
        let migrated = try engine.rerecord(try Items.schema1Session(), migrating: true)
        #expect(migrated.header.app.schemaVersion == "2")
        #expect(migrated.actions.map(\.action) == [
            .object(["add": .object(["id": .integer(1), "title": .string("a")])]),
            .object(["add": .object(["id": .integer(2), "title": .string("b")])]),
            .object(["reset": .object([:])]),
        ])
        #expect(migrated.actions[0].state["items"]?.arrayValue?.first?["isPaused"] == .bool(false))
        #expect(migrated.actions.map { $0.patch != nil } == [false, true, false])
        // And it replays with no migration at all
        let report = ReplayEngine(stores: [ReplayableStore(id: "items", reducer: Items.reducer)]).replay(migrated)
        #expect(report.verdict == .match)
    }

    @Test func rerecordingAnOldSessionWithoutMigrationIsRefused() throws {
        #expect {
            try ReplayEngine(stores: [Items.store()]).rerecord(try Items.schema1Session())
        } throws: { error in
            "\(error)".hasPrefix("the session is recorded under schema '1' and the store is at schema '2'")
        }
    }

    @Test func aRequestCarriesItsPatternsAndMigrateFlagAndReadsBack() throws {
        let request = ReplayHostRequest(
            command: .check, ignoring: [try JSONPathPattern("todos[*].id")], migrating: true)
        #expect(request.jsonValue["ignore"] == .array([.string("todos[*].id")]))
        #expect(try ReplayHostRequest(jsonValue: request.jsonValue) == request)
        var bad = request.jsonValue.objectValue ?? [:]
        bad["ignore"] = .array([.string("todos[")])
        #expect(throws: JSONPathPatternError.self) { try ReplayHostRequest(jsonValue: .object(bad)) }
    }
}
