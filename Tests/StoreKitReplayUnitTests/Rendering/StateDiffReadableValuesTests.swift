import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import StoreKitTestFixtures
import Testing

/// A sync-up app's state as Swift writes it: a navigation stack of screens by id, one an enum case with an
/// unlabelled payload holding a `Duration` and a `Date`, and sync-ups by UUID whose meetings have dates.
private enum Rehearsal {
    struct Meeting: Codable, Equatable, Sendable, Identifiable {
        var id: UUID
        var date: Date
        var transcript: String
    }

    struct SyncUp: Codable, Equatable, Sendable, Identifiable {
        var id: UUID
        var title: String
        var duration: Duration
        var meetings: [Meeting]
    }

    struct Record: Codable, Equatable, Sendable {
        var speakerIndex: Int
        var secondsElapsed: Duration
        var startedAt: Date
    }

    enum Screen: Codable, Equatable, Sendable {
        case detail(UUID)
        case record(Record)
    }

    struct Element: Codable, Equatable, Sendable, Identifiable {
        var id: Int
        var screen: Screen
    }

    struct State: Codable, Equatable, Sendable {
        var path: [Element]
        var syncUps: [SyncUp]
    }

    enum RecordAction: Codable, Equatable, Sendable {
        case timerTick
    }

    enum StackAction: Codable, Equatable, Sendable {
        case element(id: Int, action: RecordAction)
    }

    enum Action: Codable, Equatable, Sendable {
        case path(StackAction)
    }

    static let design = UUID(uuidString: "3F2504E0-4F89-11D3-9A0C-0305E82C3301")!
    static let kickoff = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!
    static let review = UUID(uuidString: "00000000-0000-0000-0000-000000000002")!
    /// 2026-11-23T10:00:00Z.
    static let tenOClock = Date(timeIntervalSince1970: 1_795_428_000)

    static let initial = State(
        path: [
            Element(id: 0, screen: .detail(design)),
            Element(
                id: 1,
                screen: .record(Record(speakerIndex: 1, secondsElapsed: .milliseconds(12_500), startedAt: tenOClock))),
        ],
        syncUps: [
            SyncUp(
                id: design, title: "Design", duration: .seconds(300),
                meetings: [
                    Meeting(id: kickoff, date: tenOClock.addingTimeInterval(-86_400), transcript: "kickoff"),
                    Meeting(id: review, date: tenOClock.addingTimeInterval(-3_600), transcript: "review"),
                ])
        ])

    /// A tick adds half a second to the record screen's clock.
    static let reducer = Reducer<State, Action> { state, action in
        guard case .path(.element(let id, .timerTick)) = action, let index = state.path.firstIndex(where: { $0.id == id }),
            case .record(var record) = state.path[index].screen
        else { return }
        record.secondsElapsed += .milliseconds(500)
        state.path[index].screen = .record(record)
    }

    /// A regression: a tick adds a whole second and restarts the clock 1.5 s later.
    static let broken = Reducer<State, Action> { state, action in
        guard case .path(.element(let id, .timerTick)) = action, let index = state.path.firstIndex(where: { $0.id == id }),
            case .record(var record) = state.path[index].screen
        else { return }
        record.secondsElapsed += .seconds(1)
        record.startedAt = record.startedAt.addingTimeInterval(1.5)
        state.path[index].screen = .record(record)
    }

    static func encoded(_ state: State, notes: inout EncodedTypeNotes) throws -> JSONValue {
        try JSONValue(parsing: CanonicalJSONEncoder().encodeToBytes(state, typeNotes: &notes))
    }
}

@Suite struct StateDiffReadableValuesTests {
    @Test func theEncoderNotesDatesAndDurationsWithoutChangingTheBytes() throws {
        // When the state is encoded with notes, by the byte writer and by the tree encoder
        var notes = EncodedTypeNotes()
        let bytes = try CanonicalJSONEncoder().encodeToBytes(Rehearsal.initial, typeNotes: &notes)

        // Then the bytes are those of the plain encoding, dates as seconds and durations as [high, low]
        #expect(bytes == (try CanonicalJSONEncoder().encodeToBytes(Rehearsal.initial)))
        #expect(bytes == (try CanonicalJSONEncoder().encode(Rehearsal.initial).canonicalBytes()))
        let json = try JSONValue(parsing: bytes)
        #expect(json["path"]?.arrayValue?[1]["screen"]?["record"]?["_0"]?["secondsElapsed"] == .array([.integer(0), .unsignedInteger(12_500_000_000_000_000_000)]))
        #expect(json["syncUps"]?.arrayValue?[0]["meetings"]?.arrayValue?[0]["date"] == .double(1_795_341_600))

        // And the notes say where each date and duration is, array elements generalised
        let record: [EncodedTypeNotes.Step] = [.member("path"), .element, .member("screen"), .member("record"), .member("_0")]
        let expected = EncodedTypeNotes([
            .dates: [record + [.member("startedAt")], [.member("syncUps"), .element, .member("meetings"), .element, .member("date")]],
            .durations: [record + [.member("secondsElapsed")], [.member("syncUps"), .element, .member("duration")]],
        ])
        #expect(notes == expected)
        #expect(try EncodedTypeNotes(jsonMembers: notes.jsonMembers) == notes)

        // The tree encoder (what the byte writer cannot follow falls back to) notes the same places
        struct Priced: Codable {
            var price: Decimal
            var state: Rehearsal.State
        }
        var treeNotes = EncodedTypeNotes()
        _ = try CanonicalJSONEncoder().encodeToBytes(Priced(price: 1, state: Rehearsal.initial), typeNotes: &treeNotes)
        #expect(treeNotes.paths[.dates]?.count == 2)
        #expect(treeNotes.paths[.durations]?.contains([.member("state")] + record + [.member("secondsElapsed")]) == true)
    }

    @Test func datesAndDurationsReadAsISO8601AndSecondsInTheSummaryTheDumpAndTheJSON() throws {
        // Given the state and one where the clock ran a second, restarted 1.5 s later, and the meetings swapped
        var notes = EncodedTypeNotes()
        let old = try Rehearsal.encoded(Rehearsal.initial, notes: &notes)
        var later = Rehearsal.initial
        later.path[1].screen = .record(
            Rehearsal.Record(speakerIndex: 2, secondsElapsed: .milliseconds(13_500), startedAt: Rehearsal.tenOClock.addingTimeInterval(1.5)))
        later.syncUps[0].meetings.reverse()
        let new = try Rehearsal.encoded(later, notes: &notes)

        // When they are diffed with the notes
        let diff = StateDiff(from: old, to: new, typeNotes: notes)

        // Then the duration is one change in seconds, the date ISO 8601, paths without `_0`, the swap one move
        #expect(
            diff.summary == """
                4 differences:
                  path[id: 1].screen.record.secondsElapsed  12.5 s -> 13.5 s
                  path[id: 1].screen.record.speakerIndex  1 -> 2
                  path[id: 1].screen.record.startedAt  2026-11-23T10:00:00.000Z -> 2026-11-23T10:00:01.500Z
                  syncUps[id: 3F2504E0-4F89-11D3-9A0C-0305E82C3301].meetings[id: 00000000-0000-0000-0000-000000000002]  moved from 1 to 0
                """)
        #expect(
            diff.rendered() == """
                  {
                    "path": [
                      ... (1 unchanged)
                      {
                        "id": 1,
                        "screen": {
                          "record": {
                            "_0": {
                -             "secondsElapsed": 12.5 s,
                +             "secondsElapsed": 13.5 s,
                -             "speakerIndex": 1,
                +             "speakerIndex": 2,
                -             "startedAt": 2026-11-23T10:00:00.000Z
                +             "startedAt": 2026-11-23T10:00:01.500Z
                            }
                          }
                        }
                      }
                    ],
                    "syncUps": [
                      {
                        "duration": 300 s,
                        "id": "3F2504E0-4F89-11D3-9A0C-0305E82C3301",
                        "meetings": [
                          (moved from 1 to 0) {
                            "date": 2026-11-23T09:00:00.000Z,
                            "id": "00000000-0000-0000-0000-000000000002",
                            "transcript": "review"
                          },
                          ... (1 unchanged)
                        ],
                        "title": "Design"
                      }
                    ]
                  }
                """)

        // And the JSON form keeps the raw values with the readable ones beside them
        let changes = diff.jsonValue.arrayValue ?? []
        #expect(changes[0]["old"] == .array([.integer(0), .unsignedInteger(12_500_000_000_000_000_000)]))
        #expect(changes[0]["oldReadable"] == .string("12.5 s"))
        #expect(changes[0]["newReadable"] == .string("13.5 s"))
        #expect(changes[1]["oldReadable"] == nil)
        #expect(changes[2]["old"] == .double(1_795_428_000))
        #expect(changes[2]["newReadable"] == .string("2026-11-23T10:00:01.500Z"))
    }

    @Test(arguments: [
        (JSONValue.double(0), "1970-01-01T00:00:00.000Z"),
        (.double(-0.001), "1969-12-31T23:59:59.999Z"),
        (.double(951_782_400.25), "2000-02-29T00:00:00.250Z"),
        (.integer(-62_135_596_800), "0001-01-01T00:00:00.000Z"),
        (.double(253_402_300_799.9994), "9999-12-31T23:59:59.999Z"),
    ])
    func aDateReadsAsISO8601InUTC(_ seconds: JSONValue, _ text: String) {
        let diff = StateDiff(from: .object(["at": .double(1)]), to: .object(["at": seconds]), typeNotes: EncodedTypeNotes([.dates: [[.member("at")]]]))
        #expect(diff.summary == "1 difference: at  1970-01-01T00:00:01.000Z -> \(text)")
    }

    @Test(arguments: [
        (Duration.seconds(0), "0 s"), (.milliseconds(-250), "-0.25 s"), (.seconds(86_400 * 365), "31536000 s"),
        (.nanoseconds(1), "0.000000001 s"), (Duration(secondsComponent: 20, attosecondsComponent: 1), "20.000000000000000001 s"),
    ])
    func aDurationReadsAsExactSeconds(_ duration: Duration, _ text: String) throws {
        struct Timer: Codable { var elapsed: Duration }
        var notes = EncodedTypeNotes()
        let old = try JSONValue(parsing: CanonicalJSONEncoder().encodeToBytes(Timer(elapsed: .seconds(1)), typeNotes: &notes))
        let new = try JSONValue(parsing: CanonicalJSONEncoder().encodeToBytes(Timer(elapsed: duration), typeNotes: &notes))
        #expect(StateDiff(from: old, to: new, typeNotes: notes).summary == "1 difference: elapsed  1 s -> \(text)")
    }

    @Test func aReplayCarriesTheNotesThroughTheReportsJSONAsAHostSendsThem() throws {
        // Given a session recorded with the working reducer
        let transport = MemoryTransport()
        let store = Store(initialState: Rehearsal.initial, reducer: Rehearsal.reducer)
        let recorder = store.startRecording(.init(storeID: "rehearsal", app: AppInfo(name: "SyncUps")), to: transport)
        store.dispatch(.path(.element(id: 1, action: .timerTick)))
        recorder.finishWaitingGenerously()
        let session = try transport.session()
        #expect(session.actions.map(\.name) == ["path.element.timerTick"])

        // When it is replayed through the regression, and the report read back from its JSON as replay-cli reads it
        let report = ReplayEngine(stores: [ReplayableStore(id: "rehearsal", reducer: Rehearsal.broken)]).replay(session)
        let reread = try ReplayReport(jsonValue: report.jsonValue, header: report.header)

        // Then both explain the difference in seconds and ISO 8601
        guard case .diverged(let divergence) = reread.verdict else {
            Issue.record("expected a divergence, got \(reread.verdict)")
            return
        }
        #expect(
            divergence.diff.summary == """
                2 differences:
                  path[id: 1].screen.record.secondsElapsed  13 s -> 13.5 s
                  path[id: 1].screen.record.startedAt  2026-11-23T10:00:00.000Z -> 2026-11-23T10:00:01.500Z
                """)
        #expect(reread.explanation(source: "s.jsonl") == report.explanation(source: "s.jsonl"))
    }

    @Test func datesInsideAWholeAddedValueReadAsISO8601TooInsideDictionariesWrittenAsPairs() throws {
        // Given a roster gaining a member whose attendance is a [MemberID: Date], written as pairs
        struct MemberID: Codable, Hashable { var raw: Int }
        struct Member: Codable { var id: Int; var joined: Date; var attendance: [MemberID: Date] }
        struct Roster: Codable { var members: [Member] }
        var notes = EncodedTypeNotes()
        let ada = Member(id: 1, joined: Rehearsal.tenOClock, attendance: [:])
        let bob = Member(id: 2, joined: Rehearsal.tenOClock, attendance: [MemberID(raw: 7): Rehearsal.tenOClock.addingTimeInterval(0.25)])
        let old = try JSONValue(parsing: CanonicalJSONEncoder().encodeToBytes(Roster(members: [ada]), typeNotes: &notes))
        let new = try JSONValue(parsing: CanonicalJSONEncoder().encodeToBytes(Roster(members: [ada, bob]), typeNotes: &notes))

        // Then the added member is printed whole, each date readable, the one inside the pairs too
        #expect(
            StateDiff(from: old, to: new, typeNotes: notes).rendered() == """
                  {
                    "members": [
                      ... (1 unchanged)
                +     {
                +       "attendance": [
                +         {
                +           "raw": 7
                +         },
                +         2026-11-23T10:00:00.250Z
                +       ],
                +       "id": 2,
                +       "joined": 2026-11-23T10:00:00.000Z
                +     }
                    ]
                  }
                """)
    }
}
