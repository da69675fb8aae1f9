import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import StoreKitTestFixtures
import Testing

/// The recorder notes the Swift types the initial state's JSON hides, once, in the session's header.
@Suite struct SessionRecorderTypeNotesTests {
    /// The fixture session of ``TypedPlanner``, checked in for `log` and `history`.
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sessions/typed-planner.jsonl").path

    private func record(redaction: Redaction = Redaction()) throws -> Session {
        let transport = MemoryTransport()
        let store = Store(initialState: TypedPlanner.State(), reducer: TypedPlanner.reducer)
        let recorder = store.startRecording(
            .init(
                storeID: "planner", app: AppInfo(name: "Planner", commit: String(repeating: "a", count: 40)),
                redaction: redaction),
            to: transport)
        for action in TypedPlanner.actions { store.dispatch(action) }
        recorder.finishWaitingGenerously()
        return try transport.session()
    }

    @Test func theHeaderNotesTheDateTheDurationTheKeyedPairsAndTheIdentityMemberOfTheInitialState() throws {
        // Given a state with a Date, a Duration, a [UUID: Int] and tasks identified by `toDoID`, when it is recorded
        let session = try record()

        // Then the header says where each is, and stays format 1
        #expect(
            session.header.typeNotes
                == EncodedTypeNotes(
                    [
                        .dates: [[.member("deadline")]], .durations: [[.member("elapsed")]],
                        .keyedPairArrays: [[.member("votes")]],
                    ],
                    identityKeys: [[.member("tasks")]: "toDoID"]))
        #expect(session.header.formatVersion == 1)
    }

    @Test func theNotesAreWrittenAsTheHeadersTypeNotesMember() throws {
        // Given a recorded session
        let session = try record()

        // When its header is written as a line
        let line = String(decoding: SessionEvent.header(session.header).line, as: UTF8.self)

        // Then the notes are one member, their paths as arrays of steps
        #expect(
            line.contains(
                #""typeNotes":{"dates":[["deadline"]],"durations":[["elapsed"]],"identityKeys":[[["tasks"],"toDoID"]],"keyedPairArrays":[["votes"]]}"#),
            "\(line)")
    }

    @Test func aRedactedInitialStateKeepsItsNotes() throws {
        // Given a recorder that redacts the deadline, when it records
        let session = try record(redaction: Redaction(state: ["deadline"]))

        // Then the notes still say where the types are: they hold paths, never values
        #expect(session.header.typeNotes == (try record().header.typeNotes))
        #expect(session.header.typeNotes.kind(at: JSONPath([.key("elapsed")])) == .durations)
    }

    @Test func theFixtureSessionHoldsWhatTheRecorderWrites() throws {
        // Given the checked-in session and one recorded now
        let fixture = try Session(contentsOf: Self.fixture)
        let recorded = try record()

        // Then they hold the same notes, initial state, actions and states (only times, host and ids differ)
        #expect(fixture.header.typeNotes == recorded.header.typeNotes)
        #expect(fixture.header.initialState == recorded.header.initialState)
        #expect(fixture.actions.map(\.action) == recorded.actions.map(\.action))
        #expect(fixture.actions.map(\.name) == recorded.actions.map(\.name))
        #expect(fixture.actions.map(\.state) == recorded.actions.map(\.state))
    }
}
