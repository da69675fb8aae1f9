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

    @Test func theLinesItForgetsLeaveItsMemoryAtOnce() throws {
        // Given a flight recorder of 16 KB and actions of about 1 KB each
        let header = SessionHeader(
            sessionID: "s", storeID: "notes", app: AppInfo(name: "N"), startedAt: "2026-01-01T00:00:00.000Z",
            host: "h", pid: 1, initialState: .object(["text": .string("")]))
        let flight = FlightRecorder(maxBytes: 16 << 10)
        _ = try flight.start(header: SessionEvent.header(header).line)
        var longestLine = 0

        for sequence in 1...300 {
            let line = SessionEvent.action(
                ActionEvent(
                    sequence: sequence, time: 0, name: "type", action: .object(["type": .integer(Int64(sequence))]),
                    origin: .app, state: .object(["text": .string(String(repeating: "x", count: 1_000 + sequence))]))
            ).line
            longestLine = max(longestLine, line.count)

            // When each is written
            try flight.write(line)

            // Then the bytes in its memory never pass its bound and one line, forgotten lines included
            #expect(flight.retainedBytes <= flight.maxBytes + longestLine, "after action \(sequence)")
        }
    }

    @Test func aLineWhoseKindIsSpelledWithAnEscapeIsKeptAsWhatItSays() throws {
        // Given an action line whose `kind` spells its first letter as an escape
        let flight = FlightRecorder()
        _ = try flight.start(header: Array("\(headerLine)\n".utf8))
        let line =
            #"{"action":{"clear":{}},"kind":"\u0061ction","name":"clear","origin":"app","seq":1,"state":{"n":1},"#
            + #""time":0.1}"#

        // When it is written
        try flight.write(Array("\(line)\n".utf8))

        // Then it is held as an action, whose state the dump keeps
        let session = try Session(ndjson: flight.sessionBytes())
        #expect(session.actions.map(\.sequence) == [1])
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

    @Test func itsDumpsAndSpillsAreReadableByTheirOwnerOnly() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let spillPath = directory.file("spill.jsonl")
        let dumpPath = directory.file("bug.jsonl")
        // Given a flight recorder that spills on every batch of lines
        let flight = FlightRecorder(maxBytes: 8_000, spill: .init(path: spillPath, interval: .zero))
        _ = record(50, into: flight)

        // When it is dumped
        try flight.dump(to: dumpPath)

        // Then both files are mode 0600
        for path in [spillPath, dumpPath] {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue
            #expect(mode == 0o600, "\(path) has mode \(String(mode ?? 0, radix: 8))")
        }
    }

    @Test func aPatchLineIsRefusedBecauseItsStateCouldNotBecomeAKeyframe() throws {
        let flight = FlightRecorder()
        _ = try flight.start(header: Array("\(headerLine)\n".utf8))
        let patchLine = #"{"action":{"clear":{}},"kind":"action","name":"clear","origin":"app","patch":[],"seq":1,"time":0.1}"#
        #expect(throws: FlightRecorderError.patchLine) { try flight.write(Array("\(patchLine)\n".utf8)) }
        #expect(throws: FlightRecorderError.nothingRecorded) { try FlightRecorder().sessionBytes() }
    }

    @Test func keepsEffectLinesRenumberingTheirCauseAndLeavesOutTheRunsWhoseCauseItForgot() throws {
        // Given a format 2 session's lines, with runs for the actions 1, 2 and 4
        let header = SessionHeader(
            sessionID: "s", storeID: "tally", app: AppInfo(name: "T"), startedAt: "2026-01-01T00:00:00.000Z",
            host: "h", pid: 1, initialState: .object(["n": .integer(0)]), effects: ["e"])
        func action(_ seq: Int, cause: Int? = nil) -> SessionEvent {
            .action(
                ActionEvent(
                    sequence: seq, time: 0, name: "step", action: .object(["step": .integer(Int64(seq))]),
                    origin: cause.map { .effect(cause: $0) } ?? .app, state: .object(["n": .integer(Int64(seq))]),
                    effect: cause.map { _ in "e" }))
        }
        func call(_ cause: Int) -> SessionEvent {
            .call(EffectCallEvent(cause: cause, effect: "e", index: 0, name: "fetch", time: 0, result: .value(.null)))
        }
        func end(_ cause: Int, sent: Int) -> SessionEvent {
            .effectEnd(EffectEndEvent(cause: cause, effect: "e", outcome: .finished, calls: 1, sent: sent, time: 0))
        }
        let events = [
            action(1), action(2), call(1), action(3, cause: 1), call(2), end(1, sent: 1), end(2, sent: 0),
            action(4), call(4), end(4, sent: 0),
        ]
        let lines = events.map(\.line)

        // When the flight recorder holds all but the first two actions and the call after them
        let flight = FlightRecorder(maxBytes: lines.reduce(0) { $0 + $1.count } - lines[0].count - lines[2].count)
        _ = try flight.start(header: SessionEvent.header(header).line)
        try flight.write(lines.reduce([], +))
        let session = try Session(ndjson: flight.sessionBytes())

        // Then the dump starts at action 3 (now 1) from action 2's state; the runs of 1 and 2 are left out, and
        // the run of 4 (now 2) is kept with its cause renumbered
        #expect(session.header.initialState == .object(["n": .integer(2)]))
        #expect(session.header.effects == ["e"])
        #expect(session.events.map(\.kind) == [.action, .action, .call, .effectEnd])
        #expect(session.actions.map(\.origin) == [.effect(cause: nil), .app])
        #expect(session.actions.first?.effect == "e")
        let calls = session.events.compactMap { if case .call(let call) = $0 { call.cause } else { nil } }
        #expect(calls == [2])
    }

}
