import Foundation
import SampleFeatures
import SampleReplayStores
import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import StoreKitTesting
import Testing

@Suite struct GoldenReplayTests {
    @Test func thereAreGoldenSessionsForEverySampleFeature() {
        let names = SampleSessions.paths.map { URL(fileURLWithPath: $0).lastPathComponent }
        #expect(names.contains { $0.hasPrefix("counter") })
        #expect(names.contains { $0.hasPrefix("todos") })
        #expect(names.contains { $0.hasPrefix("scoreboard") })
    }

    @Test(arguments: SampleSessions.paths)
    func everyGoldenSessionReplaysThroughTheCurrentReducers(_ path: String) throws {
        let report = try assertReplayMatches(session: path, stores: SampleStores.all, record: .never)
        #expect(report.actionCount > 0)
        #expect(report.end?.reason == .finished)
    }

    @Test(arguments: SampleSessions.paths)
    func everyGoldenSessionLineMatchesTheSchema(_ path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        for (index, line) in data.split(separator: 0x0A).enumerated() {
            let violations = SessionSchema.validator.validate(try JSONValue(parsing: Array(line)))
            #expect(violations.isEmpty, "\(path):\(index + 1): \(violations)")
        }
    }

    @Test func aRelativeGoldenPathStartsFromTheTestFilesFolderNotTheWorkingDirectory() throws {
        // Given a golden named relative to this test file's folder, which from the working directory (the package
        // root under swift test; another folder under Xcode or a CI runner) names nothing
        let report = try assertReplayMatches(
            session: "../../samples/sessions/counter-basic.jsonl", stores: SampleStores.all, record: .never)

        // Then it is found there and replays
        #expect(report.isMatch)
    }

    @Test func theGoldensCatchARegressionAtTheRightStep() throws {
        // Given the todos golden and a reducer that no longer toggles todos
        let path = SampleSessions.path("todos-basic.jsonl")
        let session = try Session(contentsOf: path)
        let firstToggle = try #require(session.actions.first { $0.name == "toggleCompleted" })
        let regressed = Reducer<Todos.State, Todos.Action> { state, action in
            if case .toggleCompleted = action { return }
            Todos.reducer.reduce(&state, action)
        }

        // When the golden is replayed through it
        let error = #expect(throws: GoldenReplayError.self) {
            try assertReplayMatches(
                session: path, stores: [ReplayableStore(id: Todos.storeID, reducer: regressed)], record: .never)
        }

        // Then it diverges at the first toggle, naming the action and the isComplete path
        let message = error?.description ?? ""
        #expect(message.contains("diverged at step \(firstToggle.sequence) of \(session.actions.count)"), "\(message)")
        #expect(message.contains("toggleCompleted"))
        #expect(message.contains(".isComplete"))
    }

    @Test func theScoreboardGoldenHoldsEffectActionsWithTheirCause() throws {
        let session = try Session(contentsOf: SampleSessions.path("scoreboard-match.jsonl"))
        let posted = session.actions.filter { $0.name == "scorePosted" || $0.name == "postFailed" }
        #expect(!posted.isEmpty)
        for action in posted {
            guard case .effect(let cause?) = action.origin else {
                Issue.record("step \(action.sequence) is not marked as an effect action with a cause")
                continue
            }
            let causeName = session.actions.first { $0.sequence == cause }?.name
            #expect(causeName == "homeScored" || causeName == "awayScored")
        }
    }
}

@Suite struct DeltaGoldenTests {
    @Test func theDeltaAndFullGoldensHoldTheSameStatesAndBothReplay() throws {
        let full = try Session(contentsOf: SampleSessions.path("todos-basic.jsonl"))
        let delta = try Session(contentsOf: SampleSessions.path("todos-delta.jsonl"))
        #expect(delta.actions.contains { $0.patch != nil })
        // The tags are a Set, whose JSON order differs between the two recording processes: compare typed states.
        let decoder = JSONValueDecoder()
        let fullStates = try full.actions.map { try decoder.decode(Todos.State.self, from: $0.state) }
        let deltaStates = try delta.actions.map { try decoder.decode(Todos.State.self, from: $0.state) }
        #expect(fullStates == deltaStates)
        #expect(ReplayEngine(stores: SampleStores.all).replay(delta).verdict == .match)
    }
}
