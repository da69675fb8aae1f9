import Foundation
import StoreKitCore
import StoreKitReplay
import StoreKitSystem
import StoreKitTestFixtures
import Testing

/// What a recorder writes when ``SessionRecorder/finish(reason:timeout:)`` runs out of time: a `timedOut` gap for
/// every action it could not write and an `end` of reason `timedOut`.
@Suite struct SessionRecorderTimeoutTests {
    /// A recorder whose transport holds its first write (of action 1) while actions 2...`count` are queued.
    private func recorderHeldAfterTheFirstAction(
        _ count: Int
    ) -> (SessionRecorder<Tally.State, Tally.Action>, ControlledTransport) {
        let transport = ControlledTransport()
        let store = Store(initialState: Tally.State(), reducer: Tally.reducer)
        transport.hold()
        let recorder = store.startRecording(.init(storeID: "tally", app: AppInfo(name: "T")), to: transport)
        store.dispatch(.add(1))
        #expect(transport.waitUntilWriteIsHeld())
        for value in 2...count { store.dispatch(.add(value)) }
        return (recorder, transport)
    }

    /// The session's last two events, which must be a `timedOut` gap of `range` and a `timedOut` end.
    private func expectTimedOutEnding(_ session: Session, gap range: ClosedRange<Int>, actions: Int) {
        let ending = Array(session.events.suffix(2))
        #expect(
            ending == [
                .gap(
                    GapEvent(
                        firstSequence: range.lowerBound, lastSequence: range.upperBound, reason: .timedOut,
                        message: "finish(timeout:) ran out of time before these actions were written")),
                .end(EndEvent(reason: .timedOut, actions: actions, dropped: range.count, time: endTime(session))),
            ])
    }

    /// Releases the transport's held write, from a thread of its own, once the time the recorder's `finish` left
    /// for delivering has run out.
    private func releaseOnceTheTimeToDeliverRanOut(
        _ transport: ControlledTransport, of recorder: SessionRecorder<Tally.State, Tally.Action>
    ) {
        Thread {
            while !(recorder.deliveryDeadline.map { MonotonicClock.nanoseconds() > $0 } ?? false) {
                Thread.sleep(forTimeInterval: 0.005)
            }
            transport.release()
        }.start()
    }

    private func endTime(_ session: Session) -> Double {
        if case .end(let end) = session.events.last { end.time } else { -1 }
    }

    @Test func aSlowTransportEndsWithATimedOutGapForEveryActionNotWrittenAndATimedOutEnd() async throws {
        // Given a recorder whose transport is slow: its first write returns only once the time finish leaves for
        // delivering has run out, with 99 more actions queued
        let (recorder, transport) = recorderHeldAfterTheFirstAction(100)
        releaseOnceTheTimeToDeliverRanOut(transport, of: recorder)

        // When the app finishes with a timeout
        _ = recorder.finish(timeout: .seconds(5))
        try await pollUntil { recorder.statistics.isFinished }

        // Then the session holds action 1, a timedOut gap of the 99 others and an end that counts them
        let session = try transport.session()
        #expect(session.actions.map(\.sequence) == [1])
        expectTimedOutEnding(session, gap: 2...100, actions: 100)
        let statistics = recorder.statistics
        #expect(statistics.actionsWritten == 1)
        #expect(statistics.droppedTimedOut == 99)
        #expect(statistics.dropped == 99)
    }

    @Test func aStuckTransportStillLetsFinishReturnWithinItsTimeoutAndGetsTheGapOnceItMoves() async throws {
        // Given a recorder whose transport is stuck in its first write, with 9 more actions queued
        let (recorder, transport) = recorderHeldAfterTheFirstAction(10)

        // When the app finishes with a timeout of half a second
        let started = ContinuousClock.now
        let statistics = recorder.finish(timeout: .milliseconds(500))
        let waited = started.duration(to: .now)

        // Then finish returns after its timeout (a generous margin for a loaded machine), saying nothing could be
        // written: none of the 10 actions is written, none counted as dropped yet
        #expect(waited >= .milliseconds(500) && waited < .seconds(30), "finish waited \(waited)")
        #expect(!statistics.isFinished)
        #expect(statistics.actionsSeen == 10)
        #expect(statistics.actionsWritten == 0)
        #expect(statistics.dropped == 0)

        // And once the transport moves, the session gets action 1, then the gap of the rest and the timedOut end
        transport.release()
        try await pollUntil { recorder.statistics.isFinished }
        let session = try transport.session()
        #expect(session.actions.map(\.sequence) == [1])
        expectTimedOutEnding(session, gap: 2...10, actions: 10)
    }

    @Test func gapsQueuedAmongTheActionsLeftStayAndEachRunOfActionsGetsItsOwnTimedOutGap() async throws {
        // Given a recorder with room for 3 queued actions whose transport holds its first write
        let transport = ControlledTransport()
        let store = Store(initialState: Tally.State(), reducer: Tally.reducer)
        transport.hold()
        let recorder = store.startRecording(
            .init(storeID: "tally", app: AppInfo(name: "T"), bufferCapacity: 3), to: transport)
        store.dispatch(.add(1))
        #expect(transport.waitUntilWriteIsHeld())
        // 2, 3 and 4 are queued, 5 and 6 dropped (their bufferFull gap is queued when the recorder finishes)
        for value in 2...6 { store.dispatch(.add(value)) }

        // When the time to finish runs out with all of them left
        releaseOnceTheTimeToDeliverRanOut(transport, of: recorder)
        _ = recorder.finish(timeout: .seconds(5))
        try await pollUntil { recorder.statistics.isFinished }

        // Then the session says 2-4 timed out, 5-6 did not fit, and ends timedOut counting all five
        let session = try transport.session()
        #expect(session.actions.map(\.sequence) == [1])
        let gaps = session.events.compactMap { event -> GapEvent? in
            if case .gap(let gap) = event { gap } else { nil }
        }
        #expect(gaps.map { [$0.firstSequence, $0.lastSequence] } == [[2, 4], [5, 6]])
        #expect(gaps.map(\.reason) == [.timedOut, .bufferFull])
        guard case .end(let end) = session.events.last else {
            Issue.record("no end line")
            return
        }
        #expect(end.reason == .timedOut)
        #expect(end.actions == 6)
        #expect(end.dropped == 5)
    }
}
