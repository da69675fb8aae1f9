import Foundation
import SampleFeatures
import StoreKitCore
import StoreKitReplay
import StoreKitTesting
import Testing

@Suite struct AssertGoldenTests {
    let script: [Counter.Action] = [.increment, .setStep(5), .increment, .decrement, .reset, .increment]

    private func withGoldenPath(_ body: (String) throws -> Void) throws {
        let directory = "/tmp/skr-golden-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try body("\(directory)/counter.jsonl")
    }

    @Test func aMissingGoldenIsRecordedAndFailsForReview() throws {
        try withGoldenPath { path in
            // When the golden does not exist yet in the local default mode
            let error = #expect(throws: GoldenReplayError.self) {
                try assertGolden(
                    path, storeID: Counter.storeID, initialState: Counter.State(), reducer: Counter.reducer,
                    actions: script, record: .missing)
            }

            // Then it is recorded, the test fails for review, and the next run passes
            #expect(error?.description.hasPrefix("recorded golden \(path)") == true)
            #expect(try Session(contentsOf: path).actions.count == 6)
            try assertGolden(
                path, storeID: Counter.storeID, initialState: Counter.State(), reducer: Counter.reducer,
                actions: script, record: .missing)
        }
    }

    @Test func neverModeRefusesToRecordAMissingGolden() throws {
        try withGoldenPath { path in
            let error = #expect(throws: GoldenReplayError.self) {
                try assertGolden(
                    path, storeID: Counter.storeID, initialState: Counter.State(), reducer: Counter.reducer,
                    actions: script, record: .never)
            }
            #expect(error?.description.contains("record mode 'never' may not record one") == true)
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }

    @Test func aChangedReducerFailsWithTheDiffAndFailedModeAcceptsIt() throws {
        try withGoldenPath { path in
            // Given a recorded golden
            _ = try? assertGolden(
                path, storeID: Counter.storeID, initialState: Counter.State(), reducer: Counter.reducer,
                actions: script, record: .all)
            let doubling = Reducer<Counter.State, Counter.Action> { state, action in
                Counter.reducer.reduce(&state, action)
                if case .increment = action { state.count += state.step }
            }

            // When the reducer changes, then the assertion fails at step 1 with the count's path
            let error = #expect(throws: GoldenReplayError.self) {
                try assertGolden(
                    path, storeID: Counter.storeID, initialState: Counter.State(), reducer: doubling,
                    actions: script, record: .never)
            }
            #expect(error?.description.contains("diverged at step 1 of 6") == true, "\(error?.description ?? "")")
            #expect(error?.description.contains("count") == true)

            // And 'failed' mode re-records it, after which it passes
            #expect(throws: GoldenReplayError.self) {
                try assertGolden(
                    path, storeID: Counter.storeID, initialState: Counter.State(), reducer: doubling,
                    actions: script, record: .failed)
            }
            try assertGolden(
                path, storeID: Counter.storeID, initialState: Counter.State(), reducer: doubling, actions: script,
                record: .never)
        }
    }

    @Test func aChangedScriptIsNamedAtItsStep() throws {
        try withGoldenPath { path in
            _ = try? assertGolden(
                path, storeID: Counter.storeID, initialState: Counter.State(), reducer: Counter.reducer,
                actions: script, record: .all)
            var changed = script
            changed[2] = .decrement
            let error = #expect(throws: GoldenReplayError.self) {
                try assertGolden(
                    path, storeID: Counter.storeID, initialState: Counter.State(), reducer: Counter.reducer,
                    actions: changed, record: .never)
            }
            #expect(error?.description.contains("differ from the golden's at step 3") == true)
        }
    }

    @Test(arguments: [
        ([String: String](), GoldenRecordMode.missing),
        (["CI": "true"], .never),
        (["CI": "1", "REPLAY_RECORD": "all"], .all),
        (["REPLAY_RECORD": "failed"], .failed),
        (["CI": "false"], .missing),
    ])
    func theRecordModeComesFromTheEnvironment(_ environment: [String: String], _ expected: GoldenRecordMode) throws {
        #expect(try GoldenRecordMode.fromEnvironment(environment) == expected)
    }

    @Test func anUnknownRecordModeIsAnError() {
        let error = #expect(throws: GoldenReplayError.self) {
            try GoldenRecordMode.fromEnvironment(["REPLAY_RECORD": "sometimes"])
        }
        #expect(error?.description == "REPLAY_RECORD='sometimes' is not a record mode; use one of missing, all, failed, never")
    }
}
