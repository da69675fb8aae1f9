import Foundation
import SampleFeatures
import SampleReplayStores
import StoreKitCore
import StoreKitReplay
import StoreKitTesting
import Testing

/// A failing golden assertion keeps the golden as the current reducers replay it and its HTML report, and names
/// both on its message's last line.
@Suite struct GoldenArtifactsTests {
    private func withFolder(_ body: (String) throws -> Void) throws {
        let folder = "/tmp/skr-artifacts-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try body(folder)
    }

    @Test func aDivergingGoldenNamesTheReplayedSessionAndTheReportItKept() throws {
        try withFolder { folder in
            // Given the todos golden and a reducer that no longer toggles
            let path = SampleSessions.path("todos-basic.jsonl")
            let original = try Data(contentsOf: URL(fileURLWithPath: path))

            // When the golden is replayed through it
            let error = #expect(throws: GoldenReplayError.self) {
                try assertReplayMatches(
                    session: path, stores: SampleStores.withTodoToggleRegression, record: .never, artifacts: folder)
            }

            // Then the message ends naming the two files, the replayed session is the golden as the regression
            // replays it (a match through it, unlike the golden), the report is there, and the golden is untouched
            let message = error?.description ?? ""
            let replayed = "\(folder)/todos-basic.replayed.jsonl"
            let report = "\(folder)/todos-basic.html"
            #expect(message.hasSuffix("\nartifacts: \(replayed), \(report)"), "\(message)")
            try assertReplayMatches(session: replayed, stores: SampleStores.withTodoToggleRegression, record: .never)
            #expect(try Session(contentsOf: replayed).actions.map(\.action) == Session(contentsOf: path).actions.map(\.action))
            #expect(try String(contentsOfFile: report, encoding: .utf8).contains("diverged at step 5 of 40"))
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
        }
    }

    @Test func aScriptThatNoLongerMatchesItsGoldenNamesTheArtifactsToo() throws {
        try withFolder { folder in
            // Given a golden of two additions
            let golden = "\(folder)/two-adds.jsonl"
            #expect(throws: GoldenReplayError.self) {
                try assertGolden(
                    golden, storeID: Counter.storeID, initialState: Counter.State(), reducer: Counter.reducer,
                    actions: [.increment, .increment], record: .missing)
            }

            // When the test's script changes
            let error = #expect(throws: GoldenReplayError.self) {
                try assertGolden(
                    golden, storeID: Counter.storeID, initialState: Counter.State(), reducer: Counter.reducer,
                    actions: [.increment, .decrement], record: .never, artifacts: folder)
            }

            // Then the message names the session the new script gives, which holds its actions
            let message = error?.description ?? ""
            #expect(message.contains("the test's actions differ from the golden's at step 2"), "\(message)")
            #expect(message.hasSuffix("\nartifacts: \(folder)/two-adds.replayed.jsonl, \(folder)/two-adds.html"), "\(message)")
            let replayed = try Session(contentsOf: "\(folder)/two-adds.replayed.jsonl")
            #expect(replayed.actions.map(\.name) == ["increment", "decrement"])
        }
    }

    @Test func theFolderIsREPLAY_ARTIFACTSElseThePackagesBuildFolder() {
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        #expect(GoldenArtifacts.directory(forTestFile: #filePath, environment: ["REPLAY_ARTIFACTS": "/ci/out"]) == "/ci/out")
        #expect(GoldenArtifacts.directory(forTestFile: #filePath, environment: [:]) == "\(packageRoot)/.build/replay-artifacts")
    }
}
