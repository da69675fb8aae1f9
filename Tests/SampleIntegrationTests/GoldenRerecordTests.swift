import Foundation
import SampleFeatures
import SampleReplayStores
import StoreKitCore
import StoreKitTesting
import Testing

/// Re-recording a golden (`REPLAY_RECORD=failed|all`) changes only its states: the header (session id, start time,
/// pid), the snapshot layout (patches stay patches, keyframes stay full states) and the file's mode stay.
@Suite struct GoldenRerecordTests {
    private func withCopy(of name: String, mode: Int = 0o600, _ body: (String) throws -> Void) throws {
        let directory = "/tmp/skr-rerecord-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/\(name)"
        try FileManager.default.copyItem(atPath: SampleSessions.path(name), toPath: path)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        try body(path)
    }

    private func lines(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    private func mode(_ path: String) throws -> Int? {
        try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    }

    @Test func aReRecordedDeltaGoldenKeepsItsPatchesHeaderAndMode() throws {
        try withCopy(of: "todos-delta.jsonl") { path in
            // Given the delta golden, 0600, and a reducer that no longer toggles, which changes most of its states
            let before = try lines(path)
            let originalSize = try Data(contentsOf: URL(fileURLWithPath: path)).count

            // When it is re-recorded in 'failed' mode
            #expect(throws: GoldenReplayError.self) {
                try assertReplayMatches(session: path, stores: SampleStores.withTodoToggleRegression, record: .failed)
            }

            // Then the patch lines are still patch lines, the file stays patch-sized, the header and the mode stay,
            // and it now replays as a match under the reducer it accepted
            let after = try lines(path)
            #expect(after != before)
            #expect(after.map { $0.contains(#""patch":"#) } == before.map { $0.contains(#""patch":"#) })
            let size = try Data(contentsOf: URL(fileURLWithPath: path)).count
            #expect(Double(size) < Double(originalSize) * 1.25, "\(originalSize) -> \(size) bytes")
            #expect(after.first == before.first)
            #expect(try mode(path) == 0o600)
            try assertReplayMatches(session: path, stores: SampleStores.withTodoToggleRegression, record: .never)
        }
    }

    @Test func reRecordingAnUnchangedGoldenInAllModeWritesTheSameBytes() throws {
        try withCopy(of: "todos-delta.jsonl") { path in
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(throws: GoldenReplayError.self) {
                try assertReplayMatches(session: path, stores: SampleStores.all, record: .all)
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        }
    }

    @Test func assertGoldenReRecordingKeepsTheHeaderAndTheMode() throws {
        let directory = "/tmp/skr-rerecord-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/counter.jsonl"
        let script: [Counter.Action] = [.increment, .setStep(5), .increment, .decrement]
        // Given a golden recorded by assertGolden, made private
        _ = try? assertGolden(
            path, storeID: Counter.storeID, initialState: Counter.State(), reducer: Counter.reducer, actions: script,
            record: .missing)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        let header = try lines(path)[0]
        let doubling = Reducer<Counter.State, Counter.Action> { state, action in
            Counter.reducer.reduce(&state, action)
            if case .increment = action { state.count += state.step }
        }

        // When a changed reducer is accepted, and then a changed script
        #expect(throws: GoldenReplayError.self) {
            try assertGolden(
                path, storeID: Counter.storeID, initialState: Counter.State(), reducer: doubling, actions: script,
                record: .failed)
        }
        #expect(try lines(path)[0] == header)
        #expect(throws: GoldenReplayError.self) {
            try assertGolden(
                path, storeID: Counter.storeID, initialState: Counter.State(), reducer: doubling,
                actions: script + [.reset], record: .failed)
        }

        // Then the header (session id, start time, pid) and the mode are the first recording's, and it passes
        #expect(try lines(path)[0] == header)
        #expect(try mode(path) == 0o600)
        try assertGolden(
            path, storeID: Counter.storeID, initialState: Counter.State(), reducer: doubling, actions: script + [.reset],
            record: .never)
    }
}
