import Foundation
import StoreKitCore
import StoreKitReplay
import StoreKitTesting
import Testing

/// A counter at schema 2, whose state field `value` was `count` at schema 1.
private enum Renamed {
    struct State: Codable, Equatable, Sendable {
        var value = 0
    }

    enum Action: Codable, Equatable, Sendable {
        case increment
    }

    static let store = ReplayableStore(
        id: "renamed",
        reducer: Reducer<State, Action> { state, _ in state.value += 1 }, schemaVersion: "2"
    ) { version, value in
        guard version == "1", value.kind == .state else { return value.json }
        return try value.json.renamingMember("count", to: "value")
    }

    static let schema1Golden = """
        {"app":{"build":"1","name":"R","schemaVersion":"1","version":"1"},"format":1,"host":"h","initialState":{"count":0},"kind":"session","metadata":{},"pid":1,"sessionId":"r","startedAt":"2026-01-01T00:00:00.000Z","storeId":"renamed"}
        {"action":{"increment":{}},"kind":"action","name":"increment","origin":"app","seq":1,"state":{"count":1},"time":0.1}
        {"action":{"increment":{}},"kind":"action","name":"increment","origin":"app","seq":2,"state":{"count":3},"time":0.2}

        """
}

@Suite struct GoldenMigrationTests {
    @Test func anOldGoldenReplaysThroughTheMigrationAndReRecordsMigrated() throws {
        let directory = "/tmp/skr-migration-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/renamed.jsonl"
        try Renamed.schema1Golden.write(toFile: path, atomically: true, encoding: .utf8)

        // Given a schema-1 golden whose step 2 diverges: the migration makes it readable, so the divergence shows
        let error = #expect(throws: GoldenReplayError.self) {
            try assertReplayMatches(session: path, stores: [Renamed.store], record: .never)
        }
        #expect(error?.description.contains("1 difference: value  3 -> 2") == true)

        // When it is re-recorded, it is written at the store's schema version, migrated
        #expect(throws: GoldenReplayError.self) {
            try assertReplayMatches(session: path, stores: [Renamed.store], record: .failed)
        }
        let rewritten = try Session(contentsOf: path)
        #expect(rewritten.header.app.schemaVersion == "2")
        #expect(rewritten.header.initialState == .object(["value": .integer(0)]))
        #expect(rewritten.actions.map(\.state) == [.object(["value": .integer(1)]), .object(["value": .integer(2)])])
        try assertReplayMatches(session: path, stores: [Renamed.store], record: .never)
    }
}
