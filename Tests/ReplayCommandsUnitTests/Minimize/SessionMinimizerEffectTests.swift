import Foundation
import StoreKitTestFixtures
import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import Testing

@testable import ReplayCommands

/// `minimize` shrinks a session whose rerun effect diverges, keeping with each action the effect lines of the runs
/// it started, so that what it writes is a valid format 2 session with the same effect divergence.
@Suite struct SessionMinimizerEffectTests {
    /// Four scores, each posted, and an effect that now sends the wrong receipt for the score of 3 (step 5).
    private let session = ScorePosting.session(scores: [1, 2, 3, 4])
    private let engine = ReplayEngine(
        stores: [ReplayableStore(id: "posting", reducer: ScorePosting.reducer, effects: [ScorePosting.postScore(breakingOn: 3)])])

    @Test func anEffectDivergenceShrinksToTheScoreWhosePostDiverges() throws {
        try withSessionFile(session) { path in
            // Given the full session, which diverges in the effect started by step 5
            guard case .effectDiverged(let original) = engine.replay(session).verdict else {
                Issue.record("the fixture does not diverge in its effect")
                return
            }
            #expect(original.step == 6)

            // When it is minimized
            let outcome = try SessionMinimizer(
                replayer: InProcessReplayer(engine: engine), deadline: Date(timeIntervalSinceNow: 600), hostTimeout: 60,
                terminal: Terminal(useColor: false, showProgress: false), ignoring: []
            ).minimize(SessionInput(file: path))

            // Then the score of 3 and its posted receipt are left, with the run's call and end
            #expect(outcome.session.actions.map(\.name) == ["scored", "posted"])
            #expect(outcome.reproducedStep == 2)
            let calls = outcome.session.events.compactMap { if case .call(let call) = $0 { call } else { nil } }
            #expect(calls.map(\.cause) == [1])
            #expect(calls.map(\.input) == [.integer(3)])
            #expect(outcome.session.events.contains { if case .effectEnd(let end) = $0 { end.cause == 1 } else { false } })

            // And the written session is a valid format 2 session that diverges the same way at its step 2
            let written = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("small.jsonl").path
            try Data(outcome.session.ndjson).write(to: URL(fileURLWithPath: written))
            let verified = SessionVerifier.verify(path: written)
            #expect(verified.isValid, "\(verified.problems)")
            #expect(outcome.session.header.formatVersion == 2)
            guard case .effectDiverged(let found) = try engine.replay(path: written).verdict else {
                Issue.record("the written session does not diverge in its effect")
                return
            }
            #expect(found.step == 2)
            #expect(found.effect == "post score")
            #expect(SessionMinimizer.sameEffectDivergence(found, as: original, keptSteps: [5, 6]))
        }
    }

    @Test func aCandidateKeepsTheEffectLinesOfTheRunsItsActionsStarted() {
        // When a candidate keeps the second score and its receipt
        let candidate = SessionMinimizer.candidate(session, keeping: session.actions.filter { [3, 4].contains($0.sequence) })

        // Then the run's call and end come with them, renumbered to the kept score, in their places
        #expect(
            candidate.events.map(\.kind) == ["action", "call", "action", "effectEnd"])
        let calls = candidate.events.compactMap { if case .call(let call) = $0 { call } else { nil } }
        #expect(calls.map(\.cause) == [1])
        #expect(candidate.actions.map(\.effect) == [nil, "post score"])
    }

    @Test func aDivergenceOfAnotherKindIsNotTheSame() {
        let recorded = EffectAction(name: "posted", action: .object(["posted": .object(["receipt": .integer(1003)])]), step: 6)
        let sent = EffectAction(name: "posted", action: .object(["posted": .object(["receipt": .integer(1004)])]))
        let wanted = EffectDivergence(
            step: 6, cause: 5, causeName: "scored", effect: "post score",
            kind: .actionDiffers(recorded: recorded, sent: sent, diff: StateDiff(from: recorded.action, to: sent.action)))
        var renumbered = recorded
        renumbered.step = 2
        let same = EffectDivergence(
            step: 2, cause: 1, causeName: "scored", effect: "post score",
            kind: .actionDiffers(recorded: renumbered, sent: sent, diff: StateDiff(from: recorded.action, to: sent.action)))
        let notSent = EffectDivergence(step: 2, cause: 1, causeName: "scored", effect: "post score", kind: .actionNotSent(recorded: renumbered))
        #expect(SessionMinimizer.sameEffectDivergence(same, as: wanted, keptSteps: [5, 6]))
        #expect(!SessionMinimizer.sameEffectDivergence(same, as: wanted, keptSteps: [3, 4]))
        #expect(!SessionMinimizer.sameEffectDivergence(notSent, as: wanted, keptSteps: [5, 6]))
    }
}

extension SessionEvent {
    /// The line's kind, as the session writes it.
    fileprivate var kind: String {
        switch self {
        case .header: "session"
        case .action: "action"
        case .call: "call"
        case .effectEnd: "effectEnd"
        case .gap: "gap"
        case .end: "end"
        case .note: "note"
        }
    }
}
