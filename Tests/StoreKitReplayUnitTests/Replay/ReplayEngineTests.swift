import Foundation
import StoreKitCore
import StoreKitTestFixtures
import StoreKitReplay
import StoreKitSystem
import Testing


@Suite struct ReplayEngineTests {
    let script: [Tally.Action] = [.add(1), .label("a"), .add(2), .add(3), .label("b"), .add(3), .clear, .add(4)]

    @Test func aRecordedSessionReplaysAsAMatch() throws {
        let session = try recordTally(script)
        let report = ReplayEngine(stores: [Tally.replayable]).replay(session)
        #expect(report.verdict == .match)
        #expect(report.stepsReplayed == 8)
        #expect(report.stepsMatched == 8)
        #expect(report.finalState?["total"] == .integer(4))
    }

    @Test func aChangedReducerDivergesAtTheExactStepWithAPathDiff() throws {
        // Given a session recorded with the correct reducer
        let session = try recordTally(script)

        // When it is replayed through a reducer that forgets to append 3
        let report = ReplayEngine(stores: [Tally.broken]).replay(session)

        // Then it diverges at step 4, the first add(3), and the diff names the missing element
        guard case .diverged(let divergence) = report.verdict else {
            Issue.record("expected a divergence, got \(report.verdict)")
            return
        }
        #expect(divergence.step == 4)
        #expect(divergence.actionName == "add")
        #expect(divergence.action == .object(["add": .object(["_0": .integer(3)])]))
        #expect(divergence.diff.changes.map(\.path.description) == ["items[2]"])
        #expect(report.stepsMatched == 3)
    }

    @Test func progressGoesOnThroughTheActionsReadAfterADivergenceSoALongReadIsNotTakenForAHang() throws {
        // Given a session of 8 steps that diverges at step 4 through a reducer that forgets to append 3
        let session = try recordTally(script)
        let seen = Locked<[Int]>([])
        var engine = ReplayEngine(stores: [Tally.broken])
        engine.options.willReplay = { action in seen.withLock { $0.append(action.sequence) } }

        // When it is replayed, which stops at step 4 and reads on to the end
        let report = engine.replay(session)

        // Then progress was reported for every action read, not only up to the divergence
        #expect(report.divergences.map(\.step) == [4])
        #expect(seen.withLock { $0 } == Array(1...8))
    }

    @Test func findAllDivergencesListsEveryDivergingStep() throws {
        let session = try recordTally(script)
        var engine = ReplayEngine(stores: [Tally.broken])
        engine.options.findAllDivergences = true
        let report = engine.replay(session)
        #expect(report.divergences.map(\.step) == [4, 6])
    }

    @Test func aSetInAnotherProcessOrderStillMatches() throws {
        // Given a session whose recorded labels are in a different order than this process encodes them,
        // as happens when another process (with another hash seed) recorded it
        var session = try recordTally([.label("alpha"), .label("beta"), .label("gamma")])
        guard case .action(var last) = session.events[2], case .object(var state) = last.state,
            case .array(let labels) = state["labels"]
        else {
            Issue.record("unexpected session shape")
            return
        }
        state["labels"] = .array(labels.reversed())
        last.state = .object(state)
        session.events[2] = .action(last)

        // When it is replayed, then the unequal bytes are decoded and found equal by the state's ==
        let report = ReplayEngine(stores: [Tally.replayable]).replay(session)
        #expect(report.verdict == .match)
    }

    @Test func aDroppedEventGivesTheIncompleteVerdict() throws {
        // Given a session where step 3 was dropped and a gap line says so
        var session = try recordTally(script)
        session.events[2] = .gap(GapEvent(firstSequence: 3, lastSequence: 3, reason: .bufferFull))

        // When it is replayed
        let report = ReplayEngine(stores: [Tally.replayable]).replay(session)

        // Then the verdict names the gap instead of reporting a false divergence
        #expect(report.verdict == .incomplete(gaps: [GapEvent(firstSequence: 3, lastSequence: 3, reason: .bufferFull)]))
        #expect(report.stepsMatched == 6)
    }

    @Test func aSessionWhoseFinishTimedOutIsIncompleteNamingTheTimedOutGap() throws {
        // Given a session whose recorder wrote steps 1-5, then ran out of time: a timedOut gap of 6-8 and its end
        var session = try recordTally(script)
        let gap = GapEvent(
            firstSequence: 6, lastSequence: 8, reason: .timedOut,
            message: "finish(timeout:) ran out of time before these actions were written")
        session.events = Array(session.events.prefix(5)) + [
            .gap(gap), .end(EndEvent(reason: .timedOut, actions: 8, dropped: 3, time: 1)),
        ]

        // When it is replayed
        let report = ReplayEngine(stores: [Tally.replayable]).replay(session)

        // Then it is incomplete, naming the gap and why the recording ended, never a cut-off mystery
        #expect(report.verdict == .incomplete(gaps: [gap]))
        let lines = report.explanation(source: "s.jsonl").split(separator: "\n").map(String.init)
        #expect(lines.first?.hasSuffix(", its finish timed out (end timedOut)") == true, "\(lines)")
        #expect(lines.dropFirst().first == "incomplete: the session has 1 gap (steps 6-8: timedOut); the 5 steps that could be checked match")
    }

    @Test func stepsAreCountedBySequenceNumberSoADivergenceAfterAGapIsNeverPastTheLastStep() throws {
        // Given a session of 8 steps whose steps 2-3 were dropped, and 7-8 when its finish timed out
        let recorded = try recordTally(script)
        var session = recorded
        let dropped = GapEvent(firstSequence: 2, lastSequence: 3, reason: .bufferFull)
        let timedOut = GapEvent(firstSequence: 7, lastSequence: 8, reason: .timedOut)
        session.events = [recorded.events[0], .gap(dropped)] + recorded.events[3...5] + [.gap(timedOut)]

        // When it is replayed through a reducer that forgets to append 3
        let report = ReplayEngine(stores: [Tally.broken]).replay(session)

        // Then the session has 4 actions over 8 steps, its last action is step 6, and the divergence at step 6
        // (step 4, the first add(3), starts over from its recorded state after the gap) is counted out of 8
        #expect(report.actionCount == 4)
        #expect(report.stepCount == 8)
        #expect(report.lastActionStep == 6)
        #expect(report.gap(covering: 3) == dropped)
        #expect(report.gap(covering: 8) == timedOut)
        #expect(report.gap(covering: 4) == nil)
        let lines = report.explanation(source: "s.jsonl").split(separator: "\n").map(String.init)
        #expect(lines.dropFirst().first == "diverged at step 6 of 8")
    }

    @Test func manyGapsAreNamedUpToFiveAndTheRestCounted() throws {
        // Given a session of 16 steps whose recorder dropped step 2 and every second step after it, one at a time
        var session = try recordTally(script + script)
        let dropped = Set(stride(from: 2, through: 14, by: 2))
        session.events = session.events.enumerated().map { index, event in
            dropped.contains(index + 1)
                ? .gap(GapEvent(firstSequence: index + 1, lastSequence: index + 1, reason: .bufferFull)) : event
        }

        // When it is replayed
        let report = ReplayEngine(stores: [Tally.replayable]).replay(session)

        // Then the text names the first five gaps and counts the other two, and the report still holds all seven
        guard case .incomplete(let gaps) = report.verdict else {
            Issue.record("expected an incomplete verdict, got \(report.verdict)")
            return
        }
        #expect(gaps.map(\.firstSequence) == [2, 4, 6, 8, 10, 12, 14])
        let lines = report.explanation(source: "s.jsonl").split(separator: "\n").map(String.init)
        #expect(
            lines.dropFirst().first
                == "incomplete: the session has 7 gaps (step 2: bufferFull; step 4: bufferFull; step 6: bufferFull; "
                + "step 8: bufferFull; step 10: bufferFull; and 2 more (2 steps)); the \(report.stepsMatched) "
                + "steps that could be checked match")
    }

    @Test func aHoleWithoutAGapLineIsABrokenSessionNotAGap() async throws {
        // Given an in-memory session whose step 3 vanished with no gap event, when it is replayed, then the process
        // stops with the reader's reason instead of replaying a guess
        await #expect(processExitsWith: .failure) {
            var session = try recordTally(ReplayEngineTests().script)
            session.events.remove(at: 2)
            _ = ReplayEngine(stores: [Tally.replayable]).replay(session)
        }
    }

    @Test func aRenamedActionCaseIsUndecodableAtItsStep() throws {
        // Given a session whose step 2 uses a case the current Action type no longer has
        var session = try recordTally(script)
        guard case .action(var second) = session.events[1] else { return }
        second.action = .object(["tag": .object(["_0": .string("a")])])
        second.name = "tag"
        session.events[1] = .action(second)

        // When it is replayed
        let report = ReplayEngine(stores: [Tally.replayable]).replay(session)

        // Then the verdict names the step, the part and what the decoder said
        guard case .undecodable(let failure) = report.verdict else {
            Issue.record("expected undecodable, got \(report.verdict)")
            return
        }
        #expect(failure.step == 2)
        #expect(failure.part == .action)
        #expect(failure.actionName == "tag")
        #expect(!failure.message.isEmpty)
    }

    @Test func anInitialStateMissingAFieldIsUndecodableAtStepZero() throws {
        var session = try recordTally(script)
        guard case .object(var initial) = session.header.initialState else { return }
        initial["total"] = nil
        session.header.initialState = .object(initial)
        let report = ReplayEngine(stores: [Tally.replayable]).replay(session)
        guard case .undecodable(let failure) = report.verdict else {
            Issue.record("expected undecodable, got \(report.verdict)")
            return
        }
        #expect(failure.step == 0)
        #expect(failure.part == .initialState)
        #expect(failure.path == "total")
    }

    @Test func anUnknownStoreIsNamedWithTheKnownOnes() throws {
        let session = try recordTally(script)
        let report = ReplayEngine(stores: [ReplayableStore(id: "other", reducer: Tally.reducer)]).replay(session)
        #expect(report.verdict == .unknownStore(storeID: "tally", knownStores: ["other"]))
        #expect(report.actionCount == 8)
    }

    @Test func replaysAFileByStreamingIt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("tally.jsonl")
        try Data(try recordTally(script).ndjson).write(to: URL(fileURLWithPath: path))
        let report = try ReplayEngine(stores: [Tally.replayable]).replay(path: path)
        #expect(report.verdict == .match)
        #expect(report.end?.reason == .finished)
    }

    @Test func rerecordAcceptsTheCurrentReducer() throws {
        // Given a session that diverges under the changed reducer
        let session = try recordTally(script)
        let engine = ReplayEngine(stores: [Tally.broken])

        // When it is re-recorded with that reducer, then it replays as a match and keeps its actions
        let updated = try engine.rerecord(session)
        #expect(engine.replay(updated).verdict == .match)
        #expect(updated.actions.map(\.action) == session.actions.map(\.action))
    }

    @Test func aDictionaryKeyedByAStructDivergesAsOneChangeUnderItsKey() throws {
        // Given a session whose state counts goals in a [PlayerID: Int], written as alternating keys and values
        let session = try KeyedScores.recordedSession()

        // When it is replayed through a reducer that scores two for Ada's third goal
        let report = ReplayEngine(stores: [ReplayableStore(id: "scores", reducer: KeyedScores.broken)]).replay(session)

        // Then there is one change, named by Ada's key, and the dump shows the same pair as a map
        guard case .diverged(let divergence) = report.verdict else {
            Issue.record("expected a divergence, got \(report.verdict)")
            return
        }
        #expect(divergence.step == 6)
        let key = #"counts[key: "3F2504E0-4F89-11D3-9A0C-0305E82C3301"]"#
        #expect(divergence.diff.changes.map(\.path.description) == [key])
        #expect(divergence.diff.summary == "1 difference: \(key)  3 -> 4")
        #expect(
            divergence.diff.rendered() == """
                  {
                    "counts": [
                      "0E1F2A3B-0000-4000-8000-000000000003": 1,
                -     "3F2504E0-4F89-11D3-9A0C-0305E82C3301": 3,
                +     "3F2504E0-4F89-11D3-9A0C-0305E82C3301": 4,
                      "A1B2C3D4-0000-4000-8000-000000000002": 2
                    ],
                    "title": "league"
                  }
                """)

        // And the report read back from its JSON, as replay-cli reads a host's, diffs the same way
        let reread = try ReplayReport(jsonValue: report.jsonValue, header: report.header)
        guard case .diverged(let rereadDivergence) = reread.verdict else {
            Issue.record("expected a divergence, got \(reread.verdict)")
            return
        }
        #expect(rereadDivergence.diff == divergence.diff)
        #expect(rereadDivergence.diff.rendered() == divergence.diff.rendered())
    }

    @Test func aDictionaryKeyedByAStructReplaysAsAMatch() throws {
        let session = try KeyedScores.recordedSession()
        let report = ReplayEngine(stores: [ReplayableStore(id: "scores", reducer: KeyedScores.reducer)]).replay(session)
        #expect(report.verdict == .match)
        #expect(report.stepsMatched == KeyedScores.actions.count)
    }
}
