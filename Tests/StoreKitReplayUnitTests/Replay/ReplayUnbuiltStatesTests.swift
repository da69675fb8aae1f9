import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import Testing

/// A library of sixty books: each line of its sessions is a few kilobytes, so a replay from a file leaves the
/// recorded states unbuilt until a step needs them. Each test compares that replay with the replay of the same
/// session read into memory first, whose states are all built.
private enum Library {
    struct Book: Codable, Equatable, Sendable {
        var title: String
        var loans = 0
    }

    struct State: Codable, Equatable, Sendable {
        var books: [Book] = (0..<60).map { Book(title: "A book with a long title, number \($0)") }
        var loans = 0
    }

    enum Action: Codable, Equatable, Sendable {
        case lend(Int)
    }

    static let recorded = Reducer<State, Action> { state, action in
        guard case .lend(let index) = action else { return }
        state.books[index].loans += 1
        state.loans += 1
    }

    /// The reducer after a change: lending a book from the second half of the shelf does not count it.
    static let broken = Reducer<State, Action> { state, action in
        recorded.reduce(&state, action)
        if case .lend(let index) = action, index >= 30 { state.books[index].loans -= 1 }
    }

    /// The lines of a session of `count` loans, recorded with `snapshots`.
    static func lines(count: Int = 12, snapshots: SnapshotPolicy = .full) -> [String] {
        let transport = MemoryTransport()
        let store = Store(initialState: State(), reducer: recorded)
        let recorder = store.startRecording(
            .init(storeID: "library", app: AppInfo(name: "Library"), snapshots: snapshots), to: transport)
        for loan in 0..<count { store.dispatch(.lend(loan * 7 % 60)) }
        recorder.finishWaitingGenerously()
        return String(decoding: transport.data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    static func engine(_ reducer: Reducer<State, Action>) -> ReplayEngine {
        ReplayEngine(stores: [ReplayableStore(id: "library", reducer: reducer)], options: .init(findAllDivergences: true))
    }

    /// The session's replay from its bytes, and the replay of the session read into memory first.
    static func replays(_ lines: [String], _ reducer: Reducer<State, Action>) throws -> (ReplayReport, ReplayReport) {
        let bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
        let fromFile = try engine(reducer).replay(reader: SessionReader(bytes: bytes, source: "library.jsonl"))
        let inMemory = engine(reducer).replay(try Session(ndjson: bytes, source: "library.jsonl"))
        return (fromFile, inMemory)
    }
}

@Suite struct ReplayUnbuiltStatesTests {
    @Test func aSessionOfLargeStatesReplaysAsItDoesInMemory() throws {
        let lines = Library.lines()
        #expect(lines[1].utf8.count > 2_000)

        // Given its own reducer: every step matches
        let (same, sameInMemory) = try Library.replays(lines, Library.recorded)
        #expect(same.verdict == .match)
        #expect(same == sameInMemory)

        // Given the broken reducer: the loans from the second half diverge, with the recorded state built for the diff
        let (broken, brokenInMemory) = try Library.replays(lines, Library.broken)
        #expect(broken.divergences.map(\.step) == [6, 7, 8, 9])
        #expect(broken.divergences.first?.diff.changes.map(\.path.description) == ["books[35].loans"])
        #expect(broken == brokenInMemory)
    }

    @Test func patchesApplyToAKeyframeLeftUnbuilt() throws {
        // Given a session of delta snapshots whose keyframes (every fourth action) are left unbuilt
        let lines = Library.lines(count: 12, snapshots: .delta(keyframeInterval: 4))
        #expect(lines.filter { $0.contains(#""patch":"#) }.count >= 6)

        let (same, sameInMemory) = try Library.replays(lines, Library.recorded)
        #expect(same.verdict == .match)
        #expect(same == sameInMemory)
        let (broken, brokenInMemory) = try Library.replays(lines, Library.broken)
        #expect(broken.divergences.map(\.step) == [6, 7, 8, 9])
        #expect(broken == brokenInMemory)
    }

    @Test func aStateWrittenOtherwiseThanCanonicallyIsComparedAsJSON() throws {
        // Given a recorded state with a space after each colon: the bytes differ, the JSON is the same
        var lines = Library.lines()
        lines[3] = lines[3].replacingOccurrences(of: #""loans":"#, with: #""loans": "#)

        let (report, inMemory) = try Library.replays(lines, Library.recorded)
        #expect(report.verdict == .match)
        #expect(report == inMemory)
    }

    @Test func replayStartsOverAfterAGapFromAStateLeftUnbuilt() throws {
        // Given a session whose sixth action was lost, so the seventh starts replay over from its recorded state
        var lines = Library.lines()
        lines[6] = #"{"count":1,"from":6,"kind":"gap","reason":"bufferFull","to":6}"#

        let (report, inMemory) = try Library.replays(lines, Library.broken)
        #expect(report.divergences.map(\.step) == [8, 9])
        #expect(report.gaps.map(\.firstSequence) == [6])
        #expect(report == inMemory)
    }

    @Test func aBrokenStateInALongLineIsRefusedAsEveryReadingRefusesIt() throws {
        // Given a recorded state that holds a key twice, deep inside a long line
        var lines = Library.lines()
        lines[2] = lines[2].replacingOccurrences(of: #"{"loans":0,"title""#, with: #"{"loans":0,"loans":1,"title""#)
        let bytes = Array((lines.joined(separator: "\n") + "\n").utf8)

        // Then replay stops at that line with the error a reading into memory gives
        let fromFile = #expect(throws: SessionReadError.self) {
            try Library.engine(Library.recorded).replay(reader: SessionReader(bytes: bytes, source: "library.jsonl"))
        }
        let inMemory = #expect(throws: SessionReadError.self) { try Session(ndjson: bytes, source: "library.jsonl") }
        #expect(fromFile?.line == 3)
        #expect(fromFile?.description == inMemory?.description)
    }

    @Test func aCheckDecodesTheRecordedStatesItCannotCountAsWritten() throws {
        // Given a recorded state whose total is a string, which the state type no longer reads
        var lines = Library.lines()
        lines[6] = lines[6].replacingOccurrences(of: #","loans":6}"#, with: #","loans":"six"}"#)
        #expect(lines[6].contains(#""six""#))
        let bytes = Array((lines.joined(separator: "\n") + "\n").utf8)

        // When it is checked: the replay stops there, and the drift check names the path that no longer decodes
        let check = try Library.engine(Library.recorded).check(
            reader: SessionReader(bytes: bytes, source: "library.jsonl"), contextActions: 0)
        guard case .undecodable(let failure) = check.report.verdict else {
            Issue.record("expected undecodable, got \(check.report.verdict)")
            return
        }
        #expect(failure.step == 6)
        #expect(failure.part == .recordedState)
        #expect(failure.path == "loans")
        #expect(check.drift?.entries.map(\.path) == ["loans"])
        #expect(check.drift?.entries.map(\.firstStep) == [6])
    }
}
