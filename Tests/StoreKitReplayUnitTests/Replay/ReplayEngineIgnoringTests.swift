import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import StoreKitTestFixtures
import Testing

/// A feature whose reducer stamps every tick with a value of its own, as one that calls `UUID()` would: two runs
/// never agree on the stamp.
private enum Stamped {
    enum Mode: Codable, Equatable, Sendable {
        case idle
        case running(since: Int)
    }

    struct State: Codable, Equatable, Sendable {
        var count = 0
        var stamp = ""
        var tags: Set<String> = []
        var mode = Mode.idle
    }

    enum Action: Codable, Equatable, Sendable {
        case tick
    }

    static func reducer(stampPrefix: String, step: Int = 1) -> Reducer<State, Action> {
        Reducer { state, _ in
            state.count += step
            state.stamp = "\(stampPrefix)-\(state.count)"
            state.tags.insert("t\(state.count)")
            state.mode = .running(since: 1)
        }
    }

    static let recordedStore = ReplayableStore(id: "stamped", reducer: reducer(stampPrefix: "recorded"))
    static let replayedStore = ReplayableStore(id: "stamped", reducer: reducer(stampPrefix: "replayed"))
    static let brokenStore = ReplayableStore(id: "stamped", reducer: reducer(stampPrefix: "replayed", step: 2))

    static func session(ticks: Int = 3) throws -> Session {
        let transport = MemoryTransport()
        let store = Store(initialState: State(), reducer: reducer(stampPrefix: "recorded"))
        let recorder = store.startRecording(.init(storeID: "stamped", app: AppInfo(name: "Stamped")), to: transport)
        for _ in 0..<ticks { store.dispatch(.tick) }
        recorder.finishWaitingGenerously()
        return try transport.session()
    }

    static func engine(_ store: ReplayableStore, ignoring: [String]) throws -> ReplayEngine {
        ReplayEngine(stores: [store], options: ReplayEngine.Options(ignoring: try ignoring.map(JSONPathPattern.init)))
    }
}

@Suite struct ReplayEngineIgnoringTests {
    @Test func aVolatileValueMakesEveryReplayDivergeWithoutIgnoring() throws {
        let report = try Stamped.engine(Stamped.replayedStore, ignoring: []).replay(try Stamped.session())
        guard case .diverged(let divergence) = report.verdict else {
            Issue.record("expected a divergence, got \(report.verdict)")
            return
        }
        #expect(divergence.diff.changes.map(\.path.description) == ["stamp"])
    }

    @Test func ignoringTheVolatileValueMatchesAndSaysWhatItIgnored() throws {
        // When the stamp is ignored
        let report = try Stamped.engine(Stamped.replayedStore, ignoring: ["stamp", "nothing.here"]).replay(try Stamped.session())

        // Then every step matches, and the report names the pattern, how many steps and where first
        #expect(report.verdict == .match)
        #expect(report.stepsMatched == 3)
        #expect(report.ignoring == ["stamp", "nothing.here"])
        #expect(report.ignored == [IgnoredPattern(pattern: "stamp", steps: 3, firstStep: 1, firstPath: JSONPath([.key("stamp")]))])
        #expect(
            Array(report.explanation(source: "s").split(separator: "\n").dropFirst()) == [
                "match: all 3 replayed states equal the recorded ones",
                "ignoring 'stamp', 'nothing.here':",
                "  'stamp' covered differing values at 3 steps, first stamp at step 1",
            ])
        // And the report says so as data too, read back as the CLI reads a host's report
        let json = report.jsonValue
        #expect(json["ignoring"] == .array([.string("stamp"), .string("nothing.here")]))
        let read = try ReplayReport(jsonValue: json, header: report.header)
        #expect(read.ignoring == report.ignoring)
        #expect(read.ignored == report.ignored)
    }

    @Test func aRealDifferenceStillDivergesAndItsDiffListsOnlyWhatIsNotIgnored() throws {
        let report = try Stamped.engine(Stamped.brokenStore, ignoring: ["stamp"]).replay(try Stamped.session())
        guard case .diverged(let divergence) = report.verdict else {
            Issue.record("expected a divergence, got \(report.verdict)")
            return
        }
        #expect(divergence.step == 1)
        #expect(divergence.diff.changes.map(\.path.description).sorted() == ["count", #"tags[member: "t1"]"#, #"tags[member: "t2"]"#])
        #expect(divergence.replayed["stamp"] == divergence.recorded["stamp"])
        #expect(divergence.ignored == [IgnoredDifferences(pattern: "stamp", paths: [JSONPath([.key("stamp")])])])
        #expect(report.explanation(source: "s").contains("  ignored at this step by 'stamp': stamp"))
        #expect(try ReplayReport(jsonValue: report.jsonValue, header: report.header).divergences == report.divergences)
    }

    @Test func theStateTypesOwnEqualityStillJudgesWhatIsLeft() throws {
        // Given a session whose recorded set is written in another order than this process writes it
        var session = try Stamped.session(ticks: 3)
        guard case .action(var last) = session.events[2], case .object(var state) = last.state,
            case .array(let tags) = state["tags"]
        else {
            Issue.record("unexpected session shape")
            return
        }
        state["tags"] = .array(tags.reversed())
        last.state = .object(state)
        session.events[2] = .action(last)

        // When it replays with the stamp ignored, Set's == sees equal sets: a match, not a JSON difference
        let report = try Stamped.engine(Stamped.replayedStore, ignoring: ["stamp"]).replay(session)
        #expect(report.verdict == .match)
    }

    @Test func whenTheIgnoredCopyNoLongerDecodesTheStatesAreComparedAsJSONAndTheReportSaysSo() throws {
        // Given a session recorded in mode .idle that replays into .running, and a pattern that copies the recorded
        // case into the replayed enum: {"idle": {}, "running": {...}} is no enum value
        var session = try Stamped.session(ticks: 1)
        guard case .action(var first) = session.events[0], case .object(var state) = first.state else {
            Issue.record("unexpected session shape")
            return
        }
        state["mode"] = .object(["idle": .object([:])])
        first.state = .object(state)
        first.patch = nil
        session.events[0] = .action(first)

        let report = try Stamped.engine(Stamped.replayedStore, ignoring: ["stamp", "mode.idle"]).replay(session)
        guard case .diverged(let divergence) = report.verdict else {
            Issue.record("expected a divergence, got \(report.verdict)")
            return
        }
        #expect(divergence.comparedAsJSON?.hasPrefix("with the recorded values at its ignored places the replayed state does not decode") == true)
        #expect(divergence.diff.changes.map(\.path.description) == ["mode.running"])
        #expect(report.explanation(source: "s").contains("  note    with the recorded values at its ignored places"))
    }
}
