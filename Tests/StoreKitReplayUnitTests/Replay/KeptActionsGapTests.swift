import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import StoreKitTestFixtures
import Testing

/// Gaps that keep their actions: the recorder had no room for the states after them, but kept the actions, so
/// replay runs through them and compares at the next recorded state.
@Suite struct KeptActionsGapTests {
    let script: [Tally.Action] = [.add(1), .label("a"), .add(2), .add(3), .label("b"), .add(3), .clear, .add(4)]

    @Test func aGapThatKeptItsActionsIsReplayedThroughAndTheSessionMatches() throws {
        // Given a session of 8 steps whose states after steps 3-5 were not recorded, their actions kept
        let session = try keeping(3...5, of: recordTally(script))

        // When it is replayed
        let report = ReplayEngine(stores: [Tally.replayable]).replay(session)

        // Then it matches, every step replayed and the five recorded states compared, and the text says which
        // steps had no state to compare
        #expect(report.verdict == .match)
        #expect(report.stepsReplayed == 8)
        #expect(report.stepsMatched == 5)
        #expect(report.stepsWithoutStates == [3...5])
        #expect(report.stepCount == 8)
        #expect(report.actionsKeptWithoutStates == 3)
        let lines = report.explanation(source: "s.jsonl").split(separator: "\n").map(String.init)
        #expect(
            lines.first
                == "s.jsonl: store \"tally\", 5 actions and 3 kept without their states, recorded by TallyApp 2.0 "
                + "(build 7) on 2026-11-29")
        #expect(
            lines.dropFirst().first
                == "match: all 5 replayed states equal the recorded ones; 3 steps replayed from actions the recorder "
                + "kept without their states (3-5)")
    }

    @Test func aChangeWithinAKeptGapDivergesAtTheNextRecordedStateNamingTheStepsWithoutStates() throws {
        // Given a session whose states after steps 3-5 were not recorded, step 4 (the first add(3)) among them
        let session = try keeping(3...5, of: recordTally(script))

        // When it is replayed through a reducer that forgets to append 3
        let report = ReplayEngine(stores: [Tally.broken]).replay(session)

        // Then it diverges at step 6, the next recorded state, and says the change may have begun at steps 3-5
        guard case .diverged(let divergence) = report.verdict else {
            Issue.record("expected a divergence, got \(report.verdict)")
            return
        }
        #expect(divergence.step == 6)
        #expect(divergence.unrecordedSteps == 3...5)
        let lines = report.explanation(source: "s.jsonl").split(separator: "\n").map(String.init)
        #expect(
            lines.contains(
                "  note    steps 3-5 before it replayed from actions the recorder kept without their states: the "
                    + "difference may have begun at any of them"), "\(lines)")
        // (and the report reads back from its JSON, as a replay host sends it, with both ranges)
        let reread = try ReplayReport(jsonValue: report.jsonValue, header: report.header)
        #expect(reread.divergences.first?.unrecordedSteps == 3...5)
        #expect(reread.stepsWithoutStates == [3...5])
        #expect(reread.actionsKeptWithoutStates == 3)
    }

    @Test func aKeptGapRightAfterAGapWithoutActionsIsNotReplayedAndOnlyThatOneLeavesTheSessionIncomplete() throws {
        // Given a session whose step 2 was dropped, and whose states after steps 4-5 were not recorded
        var session = try keeping(4...5, of: recordTally(script))
        let dropped = GapEvent(firstSequence: 2, lastSequence: 2, reason: .bufferFull)
        session.events[1] = .gap(dropped)

        // When it is replayed
        let report = ReplayEngine(stores: [Tally.replayable]).replay(session)

        // Then step 3 starts over from its recorded state, the kept actions are replayed, and only the gap that
        // kept nothing is one replay could not check
        #expect(report.verdict == .incomplete(gaps: [dropped]))
        #expect(report.stepsWithoutStates == [4...5])
        let lines = report.explanation(source: "s.jsonl").split(separator: "\n").map(String.init)
        #expect(
            lines.dropFirst().first
                == "incomplete: the session has 1 gap (step 2: bufferFull); the 4 steps that could be checked match; "
                + "2 steps replayed from actions the recorder kept without their states (4, 5)")
    }

    @Test func keptActionsWithNoRecordedStateAfterThemAreCheckedByNothingSoTheirGapLeavesTheSessionIncomplete() throws {
        // Given a session whose last three steps were kept without their states, as at the end of a burst
        let session = try keeping(6...8, of: recordTally(script))

        // When it is replayed
        let report = ReplayEngine(stores: [Tally.replayable]).replay(session)

        // Then all eight steps are replayed, but no recorded state checks steps 6-8: the session is incomplete
        // there, never a match
        #expect(report.verdict == .incomplete(gaps: [GapEvent(firstSequence: 6, lastSequence: 8, reason: .bufferFull)]))
        #expect(report.stepsWithoutStates.isEmpty)
        #expect(report.stepsReplayed == 8)
    }

    @Test func aSessionUpdatedThroughAChangedReducerReplaysThroughItsKeptGapAsAMatch() throws {
        // Given a session whose states after steps 3-5 were not recorded
        let session = try keeping(3...5, of: recordTally(script))

        // When it is updated through a reducer that forgets to append 3, and replayed through that reducer
        let updated = try ReplayEngine(stores: [Tally.broken]).rerecord(session)
        let report = ReplayEngine(stores: [Tally.broken]).replay(updated)

        // Then the updated states are those the kept actions lead to, so it matches
        #expect(report.verdict == .match)
        #expect(report.stepsWithoutStates == [3...5])
    }

    @Test func aGapLineWithItsKeptActionsReadsBackAsWritten() throws {
        let session = try keeping(3...5, of: recordTally(script))
        let gap = try #require(session.events.compactMap { if case .gap(let gap) = $0 { gap } else { nil } }.first)
        let line = SessionEvent.gap(gap).line
        #expect(try SessionEvent(jsonValue: JSONValue(parsing: line.dropLast())) == .gap(gap))
    }

    @Test(arguments: [
        (#""actions":[{"seq":3,"time":0,"action":1}]"#, "actions",
            "holds 1 actions; a gap keeps none or all it covers, and the gap from 3 to 4 covers 2"),
        (#""actions":[{"seq":3,"time":0,"action":1},{"seq":5,"time":0,"action":1}]"#, "actions[1].seq",
            "is 5; a gap's kept actions number each of its sequence numbers in order, so this one is 4"),
        (#""actions":[{"seq":3,"time":0,"action":1,"state":{}},{"seq":4,"time":0,"action":1}]"#, "actions[0].state",
            "cannot be in a gap's kept action, which has no state of its own"),
        (#""actions":[{"seq":3,"time":0},{"seq":4,"time":0,"action":1}]"#, "actions[0].action", "is missing"),
        (#""actions":[3,4]"#, "actions[0]", "expected an object (a kept action), found number"),
    ])
    func aGapWhoseKeptActionsDoNotFitItIsRefusedNamingThePlace(members: String, path: String, message: String) throws {
        let line = #"{"kind":"gap","from":3,"to":4,"reason":"bufferFull","# + members + "}"
        do {
            _ = try SessionEvent(jsonValue: JSONValue(parsing: Array(line.utf8)))
            Issue.record("expected the line to be refused")
        } catch let error as SessionEventDecodingError {
            #expect(error.path == path)
            #expect(error.message == message)
        }
    }

    /// `session` with the actions of `steps` moved into one `bufferFull` gap that keeps them without their states.
    private func keeping(_ steps: ClosedRange<Int>, of session: Session) -> Session {
        var session = session
        var kept: [ActionEvent] = []
        var events: [SessionEvent] = []
        for event in session.events {
            guard case .action(var action) = event, steps.contains(action.sequence) else {
                events.append(event)
                continue
            }
            action.state = .null
            action.patch = nil
            kept.append(action)
            if action.sequence == steps.upperBound {
                events.append(
                    .gap(
                        GapEvent(
                            firstSequence: steps.lowerBound, lastSequence: steps.upperBound, reason: .bufferFull,
                            actions: kept)))
            }
        }
        session.events = events
        return session
    }
}
