import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import StoreKitTestFixtures
import Testing

/// `Session.trimmed(to:)`: some steps of a session as a valid session of their own.
@Suite struct SessionTrimmingTests {
    /// A tally session of six steps: steps 3 and 5 stored as patches, step 4 dispatched by an effect of step 3 and
    /// step 6 by an effect of step 1.
    private func tallySession() throws -> Session {
        var recorded = try recordTally([.add(1), .add(2), .add(3), .label("x"), .add(5), .setRatio(0.5)])
        recorded.events = recorded.events.map { event in
            guard case .action(var action) = event else { return event }
            action.patch = nil
            if action.sequence == 4 { action.origin = .effect(cause: 3) }
            if action.sequence == 6 { action.origin = .effect(cause: 1) }
            return .action(action)
        }
        let states = [recorded.header.initialState] + recorded.actions.map(\.state)
        recorded.events = recorded.events.map { event in
            guard case .action(var action) = event, [3, 5].contains(action.sequence) else { return event }
            action.patch = JSONPatch(from: states[action.sequence - 1], to: action.state)
            return .action(action)
        }
        return recorded
    }

    @Test func theKeptStepsStartFromTheStateBeforeThemAndReplayToTheirRecordedStates() throws {
        // Given a session of six steps
        let session = try tallySession()
        let recorded = session.actions

        // When steps 3-6 are kept
        let trimmed = try session.trimmed(to: 3...6)

        // Then the initial state is the state after step 2, the steps are renumbered from 1 with their actions and
        // states, causes follow their actions (or are nil when before the range), patches still apply, and
        // the trimmed file reads back and replays as a match
        #expect(trimmed.header.initialState == recorded[1].state)
        #expect(trimmed.header.sessionID == session.header.sessionID + "-steps-3-6")
        #expect(
            trimmed.header.metadata["trimmedFrom"]
                == .object(["sessionId": .string(session.header.sessionID), "firstStep": .integer(3), "lastStep": .integer(6)]))
        #expect(trimmed.actions.map(\.sequence) == [1, 2, 3, 4])
        #expect(trimmed.actions.map(\.action) == recorded[2...].map(\.action))
        #expect(trimmed.actions.map(\.state) == recorded[2...].map(\.state))
        #expect(trimmed.actions.map(\.origin) == [.app, .effect(cause: 1), .app, .effect(cause: nil)])
        #expect(trimmed.actions.map { $0.patch != nil } == [true, false, true, false])
        #expect(trimmed.actions[0].patch == JSONPatch(from: recorded[1].state, to: recorded[2].state))
        guard case .end(let end) = trimmed.events.last else {
            Issue.record("no end line")
            return
        }
        #expect(end.actions == 4)
        let readBack = try Session(ndjson: trimmed.ndjson, source: "trimmed")
        #expect(readBack.actions.map(\.state) == trimmed.actions.map(\.state))
        #expect(ReplayEngine(stores: [Tally.replayable]).replay(readBack).isMatch)
    }

    @Test func keepingFromTheFirstStepKeepsTheRecordedInitialState() throws {
        let session = try tallySession()
        let trimmed = try session.trimmed(to: 1...2)
        #expect(trimmed.header.initialState == session.header.initialState)
        #expect(trimmed.actions.map(\.action) == session.actions.prefix(2).map(\.action))
    }

    @Test(arguments: [
        (0...2, "steps start at 1, not 0"),
        (2...7, "step 7 is past the session's last step, 6"),
    ])
    func aRangeOutsideTheSessionIsRefused(range: ClosedRange<Int>, message: String) throws {
        #expect(throws: SessionTrimError(message)) { try tallySession().trimmed(to: range) }
    }

    @Test func aRangeWhoseStepsOrStartingStateAGapLostIsRefused() throws {
        // Given a session that lost steps 3-4
        var session = try tallySession()
        session.events = session.events.compactMap { event in
            guard case .action(let action) = event, (3...4).contains(action.sequence) else { return event }
            return action.sequence == 3 ? .gap(GapEvent(firstSequence: 3, lastSequence: 4, reason: .bufferFull)) : nil
        }

        // Then steps 5-6 (whose starting state is lost) and 2-5 are refused, and 1-2 are kept
        let message = "steps 3-4 were lost (bufferFull), so steps %@ and the state before them are not all recorded"
        #expect(throws: SessionTrimError(message.replacingOccurrences(of: "%@", with: "5-6"))) { try session.trimmed(to: 5...6) }
        #expect(throws: SessionTrimError(message.replacingOccurrences(of: "%@", with: "2-5"))) { try session.trimmed(to: 2...5) }
        #expect(try session.trimmed(to: 1...2).actions.count == 2)
    }
}
