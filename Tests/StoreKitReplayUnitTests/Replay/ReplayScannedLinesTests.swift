import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import Testing

/// A replay from a file reads each action line from the members its scan finds, building only what it needs;
/// reading a session into memory parses every line whole. Each test gives both the same lines, short ones among
/// them, and expects the same report or the same error.
private enum Tally {
    struct State: Codable, Equatable, Sendable {
        var count = 0
        var note = ""
    }

    enum Action: Codable, Equatable, Sendable {
        case add(Int)
        case annotate(String)
        case reset
    }

    static let reducer = Reducer<State, Action> { state, action in
        switch action {
        case .add(let amount): state.count += amount
        case .annotate(let note): state.note = note
        case .reset: state = State()
        }
    }

    static let header =
        #"{"app":{"name":"Tally"},"format":3,"initialState":{"count":0,"note":""},"kind":"session","sessionId":"S","startedAt":"2026-11-27T00:00:00.000Z","storeId":"tally"}"#

    static func engine() -> ReplayEngine {
        ReplayEngine(stores: [ReplayableStore(id: "tally", reducer: reducer)], options: .init(findAllDivergences: true))
    }

    /// The replay of `lines` (after the header) from their bytes, and of the same lines read into memory.
    static func replays(_ lines: [String]) throws -> (fromFile: ReplayReport, inMemory: ReplayReport) {
        let bytes = Array(([header] + lines).map { $0 + "\n" }.joined().utf8)
        return (
            try engine().replay(reader: SessionReader(bytes: bytes, source: "tally.jsonl")),
            engine().replay(try Session(ndjson: bytes, source: "tally.jsonl"))
        )
    }

    /// The events of `lines` (after the header) as a replay reads them from their bytes, each state built from its
    /// line after the event, and as reading them into memory gives them.
    static func events(_ lines: [String]) throws -> (fromFile: [SessionEvent], inMemory: [SessionEvent]) {
        let bytes = Array(([header] + lines).map { $0 + "\n" }.joined().utf8)
        let reader = SessionReader(bytes: bytes, source: "tally.jsonl")
        reader.defersRecordedStates = true
        _ = try reader.next()
        var events: [SessionEvent] = []
        while let event = try reader.next() {
            guard case .action(var action) = event, let state = try reader.takeUnbuiltState() else {
                events.append(event)
                continue
            }
            action.state = state
            events.append(.action(action))
        }
        return (events, try Session(ndjson: bytes, source: "tally.jsonl").events)
    }

    /// The error replaying `lines` from their bytes stops at, and the one reading them into memory gives.
    static func errors(_ lines: [String]) -> (fromFile: String?, inMemory: String?) {
        let bytes = Array(([header] + lines).map { $0 + "\n" }.joined().utf8)
        let fromFile = #expect(throws: SessionReadError.self) {
            try engine().replay(reader: SessionReader(bytes: bytes, source: "tally.jsonl"))
        }
        let inMemory = #expect(throws: SessionReadError.self) { try Session(ndjson: bytes, source: "tally.jsonl") }
        return (fromFile?.description, inMemory?.description)
    }
}

@Suite struct ReplayScannedLinesTests {
    @Test func shortLinesOfEveryShapeReplayAsTheyDoInMemory() throws {
        let lines = [
            #"{"action":{"add":{"_0":2}},"kind":"action","name":"add","origin":"app","seq":1,"state":{"count":2,"note":""},"time":0.001}"#,
            // The same action again, then one whose name and note hold escapes and non-ASCII text
            #"{"action":{"add":{"_0":2}},"kind":"action","name":"add","seq":2,"state":{"count":4,"note":""},"time":1}"#,
            #"{"action":{"annotate":{"_0":"caf\u00e9 \"ok\" ✓"}},"kind":"action","name":"annot\u0061te","seq":3,"state":{"count":4,"note":"café \"ok\" ✓"},"time":2.5e-1}"#,
            // An effect's action with its cause, a member the format does not know, a `null` name and effect
            #"{"action":{"add":{"_0":-1}},"cause":3,"effect":null,"extra":[1,{"x":2}],"kind":"action","name":null,"origin":"effect","seq":4,"state":{"count":3,"note":"café \"ok\" ✓"},"time":12345.678901}"#,
            // A kind spelled with an escape, a state written with spaces, and a state that does not match
            #"{"action":{"reset":{}},"kind":"\u0061ction","name":"reset","seq":5,"state":{"count":0,"note":""},"time":3}"#,
            #"{"action":{"add":{"_0":5}},"kind":"action","name":"add","seq":6,"state": { "note" : "", "count" : 5 },"time":4}"#,
            #"{"action":{"add":{"_0":5}},"kind":"action","name":"add","seq":7,"state":{"count":11,"note":""},"time":5}"#,
            #"{"actions":7,"dropped":0,"kind":"end","reason":"finished","time":6}"#,
        ]
        let events = try Tally.events(lines)
        #expect(events.fromFile.count == 8)
        #expect(events.fromFile == events.inMemory)

        let (fromFile, inMemory) = try Tally.replays(lines)
        #expect(fromFile.divergences.map(\.step) == [7])
        #expect(fromFile.divergences.first?.action == .object(["add": .object(["_0": .integer(5)])]))
        #expect(fromFile == inMemory)
    }

    @Test func aBadFieldInAShortLineIsRefusedAsEveryReadingRefusesIt() {
        let good = #"{"action":{"add":{"_0":1}},"kind":"action","name":"add","seq":1,"state":{"count":1,"note":""},"time":0}"#
        let broken = [
            good.replacingOccurrences(of: #""seq":1"#, with: #""seq":0"#),
            good.replacingOccurrences(of: #""seq":1"#, with: #""seq":1.5"#),
            good.replacingOccurrences(of: #""time":0"#, with: #""time":"0""#),
            good.replacingOccurrences(of: #""name":"add""#, with: #""name":7"#),
            good.replacingOccurrences(of: #""name":"add","#, with: #""name":"add","origin":"robot","#),
            good.replacingOccurrences(of: #""action":{"add":{"_0":1}},"#, with: ""),
            good.replacingOccurrences(of: #""state":"#, with: #""patch":[],"state":"#),
            good.replacingOccurrences(of: #""kind":"action""#, with: #""kind":"acti0n""#),
            good.replacingOccurrences(of: #"{"_0":1}"#, with: #"{"_0":1,"_0":2}"#),
        ]
        for line in broken {
            let (fromFile, inMemory) = Tally.errors([line])
            #expect(fromFile != nil)
            #expect(fromFile == inMemory, "\(line)")
        }
    }
}
