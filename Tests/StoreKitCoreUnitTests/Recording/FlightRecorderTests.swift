import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import StoreKitTestFixtures
import Testing

/// A feature whose state keeps its size, so the number of lines a flight recorder holds is steady.
private enum Odometer {
    struct State: Codable, Equatable, Sendable {
        var distance = 0
        var trips = 0
    }

    enum Action: Codable, Equatable, Sendable {
        case drive(Int)
        case park
    }

    static let reducer = Reducer<State, Action> { state, action in
        switch action {
        case .drive(let kilometres): state.distance += kilometres
        case .park: state.trips += 1
        }
    }

    static let replayable = ReplayableStore(id: "odometer", reducer: reducer)
}

@Suite struct FlightRecorderTests {
    private func record(
        _ count: Int, into flight: FlightRecorder, bufferCapacity: Int = 4096
    ) -> RecorderStatistics {
        let store = Store(initialState: Odometer.State(), reducer: Odometer.reducer)
        let recorder = store.startRecording(
            .init(storeID: "odometer", app: AppInfo(name: "Car"), bufferCapacity: bufferCapacity), to: flight)
        for step in 1...count { store.dispatch(step % 10 == 0 ? .park : .drive(step)) }
        return recorder.finish(timeout: .seconds(600))
    }

    @Test func aDumpOfTheLastActionsReplaysAsAMatchFromItsKeyframe() throws {
        // Given a flight recorder that holds far fewer bytes than 500 actions take
        let flight = FlightRecorder(maxBytes: 8_000)
        let statistics = record(500, into: flight)
        #expect(statistics.dropped == 0)

        // When it is dumped
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("bug.jsonl")
        try flight.dump(to: path)

        // Then the file is a session of the last actions, numbered from 1, starting from the state before them
        let session = try Session(contentsOf: path)
        #expect(session.actions.count > 10 && session.actions.count < 500)
        #expect(session.actions.first?.sequence == 1)
        let firstSequence = session.header.metadata["flightRecorder"]?["firstSequence"]?.integerValue
        #expect(firstSequence == Int64(500 - session.actions.count + 1))
        #expect(session.header.initialState != (try JSONValue(parsing: Array(#"{"distance":0,"trips":0}"#.utf8))))
        let report = ReplayEngine(stores: [Odometer.replayable]).replay(session)
        #expect(report.verdict == .match, "\(report.explanation(source: path))")
        #expect(report.stepsMatched == session.actions.count)
    }

    @Test func itsMemoryStaysWithinItsBoundForAMillionActions() throws {
        // Given a 64 KB flight recorder
        let flight = FlightRecorder(maxBytes: 64 << 10)

        // When a million actions are recorded through it
        let statistics = record(1_000_000, into: flight)

        // Then it never held more than its bound, and what it holds still reads as a session
        #expect(statistics.actionsSeen == 1_000_000)
        #expect(flight.highWaterMark <= 64 << 10)
        #expect(flight.retainedBytes <= 64 << 10)
        let session = try Session(ndjson: try flight.sessionBytes())
        #expect(!session.actions.isEmpty)
    }

    @Test func itSpillsToAFileThatTheNextLaunchRecovers() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let spillPath = directory.file("spill.jsonl")

        // Given a flight recorder that spills on every batch of lines
        let flight = FlightRecorder(maxBytes: 8_000, spill: .init(path: spillPath, interval: .zero))
        _ = record(200, into: flight)

        // When the next launch looks for the spill
        let recovered = directory.file("recovered.jsonl")
        #expect(try FlightRecorder.recoverSpill(at: spillPath, to: recovered))

        // Then it is a session that replays, and the spill file is gone until the next spill
        let session = try Session(contentsOf: recovered)
        #expect(ReplayEngine(stores: [Odometer.replayable]).replay(session).verdict == .match)
        #expect(!FileManager.default.fileExists(atPath: spillPath))
        #expect(try !FlightRecorder.recoverSpill(at: spillPath, to: recovered))
    }

    @Test func aPatchLineIsRefusedBecauseItsStateCouldNotBecomeAKeyframe() throws {
        let flight = FlightRecorder()
        _ = try flight.start(header: Array("\(headerLine)\n".utf8))
        let patchLine = #"{"action":{"clear":{}},"kind":"action","name":"clear","origin":"app","patch":[],"seq":1,"time":0.1}"#
        #expect(throws: FlightRecorderError.patchLine) { try flight.write(Array("\(patchLine)\n".utf8)) }
        #expect(throws: FlightRecorderError.nothingRecorded) { try FlightRecorder().sessionBytes() }
    }
}
