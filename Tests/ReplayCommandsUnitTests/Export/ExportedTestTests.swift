import StoreKitTestFixtures
import StoreKitCore
import Testing

@testable import ReplayCommands

/// The TestStore style says what its steps do not check: a session's rerun effects.
@Suite struct ExportedTestTests {
    private func source(of session: Session) -> String {
        ExportedTest(
            form: .testStore(ExportedTest.Feature(stateType: "Posting.State", actionType: "Posting.Action", reducer: "Posting.reducer")),
            typeName: "PostingTests", sourceName: "posting.jsonl", steps: 1...session.actions.count, session: session,
            modules: ["Foundation", "StoreKitTesting", "Testing"]
        ).source
    }

    @Test func aSessionThatRecordsEffectInputsSaysTheStepsDoNotRerunTheEffects() {
        let lines = source(of: ScorePosting.session(scores: [2, 3])).split(separator: "\n").map(String.init)
        #expect(lines.contains(#"    /// The session also records the inputs of the replayable effects "post score"; these steps do not rerun them:"#))
        #expect(lines.contains("    /// `replay-cli diff PostingTests.jsonl` (or `assertReplayMatches` with the store's effects) checks what they send."))
    }

    @Test func aSessionWithoutEffectInputsHasNoSuchComment() {
        var session = ScorePosting.session(scores: [2])
        session.header.effects = []
        session.header.formatVersion = 1
        #expect(!source(of: session).contains("replayable effects"))
    }
}
