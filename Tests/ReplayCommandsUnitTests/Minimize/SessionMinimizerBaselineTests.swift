import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import StoreKitTestFixtures
import Testing

@testable import ReplayCommands

/// With a baseline, `minimize` writes the baseline's states and keeps a candidate only when the current code differs
/// from them as on the whole session and the baseline matches it: the written session fails through the current
/// code and matches through the baseline.
@Suite struct SessionMinimizerBaselineTests {
    /// Four scores, each posted, as the correct code records them.
    private let session = ScorePosting.session(scores: [1, 2, 3, 4])
    /// The correct code.
    private let baseline = ReplayEngine(
        stores: [ReplayableStore(id: "posting", reducer: ScorePosting.reducer, effects: [ScorePosting.postScore()])])

    /// A reducer that counts a score of 3 twice.
    private static let doublingThrees = Reducer<ScorePosting.State, ScorePosting.Action> { state, action in
        ScorePosting.reducer.reduce(&state, action)
        if case .scored(3) = action { state.total += 3 }
    }

    private func minimize(_ path: String, current: ReplayEngine, against baseline: ReplayEngine) throws -> SessionMinimizer.Outcome {
        try SessionMinimizer(
            replayer: InProcessReplayer(engine: current),
            baseline: SessionMinimizer.Baseline(replayer: InProcessReplayer(engine: baseline), commit: "1a2b3c4d", title: "1a2b3c4 \"Good\""),
            deadline: Date(timeIntervalSinceNow: 600), hostTimeout: 60, terminal: Terminal(useColor: false, showProgress: false),
            ignoring: []
        ).minimize(SessionInput(file: path))
    }

    /// `outcome`'s session written beside `path` and replayed through `engine`.
    private func replay(_ outcome: SessionMinimizer.Outcome, beside path: String, through engine: ReplayEngine) throws -> ReplayVerdict {
        let written = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("small.jsonl").path
        try Data(outcome.session.ndjson).write(to: URL(fileURLWithPath: written))
        return try engine.replay(path: written).verdict
    }

    @Test func aReducerRegressionShrinksToTheScoreAndHoldsTheBaselinesState() throws {
        let current = ReplayEngine(
            stores: [ReplayableStore(id: "posting", reducer: Self.doublingThrees, effects: [ScorePosting.postScore()])])
        try withSessionFile(session) { path in
            // When the session is minimized against the correct code
            let outcome = try minimize(path, current: current, against: baseline)

            // Then the score of 3 alone is left, cut there, holding the baseline's total and naming the baseline
            #expect(outcome.session.actions.map(\.name) == ["scored"])
            #expect(outcome.session.actions.map(\.state) == [.object(["total": .integer(3)])])
            #expect(outcome.reproducedStep == 1)
            #expect(!outcome.session.events.contains { if case .call = $0 { true } else { false } })
            #expect(outcome.session.header.metadata["minimizedFrom"]?["baseline"] == .string("1a2b3c4d"))

            // And it diverges through the current code and matches through the baseline
            guard case .diverged(let divergence) = try replay(outcome, beside: path, through: current) else {
                Issue.record("the written session does not diverge through the current code")
                return
            }
            #expect(divergence.step == 1)
            #expect(try replay(outcome, beside: path, through: baseline) == .match)
        }
    }

    @Test func anEffectRegressionShrinksToTheRunAndMatchesThroughTheBaseline() throws {
        let current = ReplayEngine(
            stores: [ReplayableStore(id: "posting", reducer: ScorePosting.reducer, effects: [ScorePosting.postScore(breakingOn: 3)])])
        try withSessionFile(session) { path in
            let outcome = try minimize(path, current: current, against: baseline)

            #expect(outcome.session.actions.map(\.name) == ["scored", "posted"])
            #expect(outcome.reproducedStep == 2)
            guard case .effectDiverged(let found) = try replay(outcome, beside: path, through: current) else {
                Issue.record("the written session does not diverge in its effect through the current code")
                return
            }
            #expect(found.effect == "post score")
            #expect(try replay(outcome, beside: path, through: baseline) == .match)
        }
    }

    @Test func whenTheCurrentCodeAgreesWithTheBaselineThereIsNothingToMinimize() throws {
        try withSessionFile(session) { path in
            #expect {
                _ = try minimize(path, current: baseline, against: baseline)
            } throws: { error in
                (error as? CLIError)?.message == "nothing to minimize: the current code replays the session as the baseline 1a2b3c4 \"Good\" does"
            }
        }
    }
}
