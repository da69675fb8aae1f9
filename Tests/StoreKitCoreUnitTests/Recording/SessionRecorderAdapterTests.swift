import StoreKitCore
import StoreKitReplay
import StoreKitTestFixtures
import Testing

@Suite struct SessionRecorderAdapterTests {
    /// A recorder an adapter drives, writing to memory.
    private func recorder(_ transport: MemoryTransport) -> SessionRecorder<Tally.State, Tally.Action> {
        SessionRecorder(
            initialState: Tally.State(), transport: transport,
            configuration: .init(storeID: "tally", app: AppInfo(name: "TallyApp")))
    }

    @Test func actionsAreNumberedInTheOrderTheyAreHandedOverWithTheirOriginAndCause() throws {
        // Given a recorder with no store
        let transport = MemoryTransport()
        let recorder = recorder(transport)
        var state = Tally.State()

        // When an adapter hands it an app action, two effect actions caused by it, and one whose cause is no earlier
        // action
        Tally.reducer.reduce(&state, .add(2))
        let first = recorder.record(.add(2), state: state)
        Tally.reducer.reduce(&state, .add(3))
        let second = recorder.record(.add(3), state: state, origin: .effect(cause: first))
        recorder.record(.clear, state: Tally.State(), origin: .effect(cause: first))
        recorder.record(.add(1), state: Tally.State(), origin: .effect(cause: 9))
        recorder.finishWaitingGenerously()

        // Then the session numbers them 1, 2, 3, 4, with the causes that are earlier actions
        #expect(first == 1)
        #expect(second == 2)
        let session = try transport.session()
        #expect(session.actions.map(\.sequence) == [1, 2, 3, 4])
        #expect(
            session.actions.map(\.origin) == [
                .app, .effect(cause: 1), .effect(cause: 1), .effect(cause: nil),
            ])
        #expect(
            session.actions[1].state
                == .object([
                    "total": .integer(5), "items": .array([.integer(2), .integer(3)]), "labels": .array([]),
                    "ratio": .double(1),
                ]))
    }

    @Test func aSkippedActionIsAGapOfReasonNotEncodableCountedAsDropped() throws {
        // Given a recorder with no store
        let transport = MemoryTransport()
        let recorder = recorder(transport)

        // When an adapter skips an action between two it hands over
        recorder.record(.add(1), state: Tally.State())
        let skipped = recorder.recordSkippedAction(message: "'Thunk' is not Codable")
        recorder.record(.clear, state: Tally.State())
        let statistics = recorder.finishWaitingGenerously()

        // Then the session holds a gap in its place, and the recorder counts it as dropped
        #expect(skipped == 2)
        let session = try transport.session()
        #expect(
            session.events.compactMap { if case .gap(let gap) = $0 { gap } else { nil } } == [
                GapEvent(
                    firstSequence: 2, lastSequence: 2, reason: .notEncodable,
                    message: "'Thunk' is not Codable")
            ])
        #expect(session.actions.map(\.sequence) == [1, 3])
        #expect(statistics.droppedNotEncodable == 1)
        #expect(statistics.dropped == 1)
    }

    @Test func nothingIsRecordedOnceTheRecorderIsFinishing() {
        // Given a finished recorder
        let recorder = recorder(MemoryTransport())
        recorder.finishWaitingGenerously()

        // Then it takes nothing more
        #expect(recorder.record(.add(1), state: Tally.State()) == nil)
        #expect(recorder.recordSkippedAction(message: "late") == nil)
    }
}
