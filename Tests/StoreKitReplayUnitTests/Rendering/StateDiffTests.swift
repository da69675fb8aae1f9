import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import Testing

@Suite struct StateDiffTests {
    private func todo(_ id: Int, _ title: String, done: Bool) -> JSONValue {
        .object(["id": .integer(Int64(id)), "title": .string(title), "isComplete": .bool(done)])
    }

    @Test func rendersAChangedLeafWithItsContext() {
        // Given two todo lists that differ in one flag
        let recorded: JSONValue = .object([
            "filter": .string("all"),
            "todos": .array([todo(1, "Bread", done: false), todo(2, "Eggs", done: true), todo(3, "Milk", done: true)]),
        ])
        var todos = recorded["todos"]!.arrayValue!
        todos[2] = todo(3, "Milk", done: false)
        let replayed: JSONValue = .object(["filter": .string("all"), "todos": .array(todos)])

        // When they are diffed
        let diff = StateDiff(from: recorded, to: replayed)

        // Then the dump folds the unchanged todos and marks the changed leaf
        #expect(
            diff.rendered() == """
                  {
                    "filter": "all",
                    "todos": [
                      ... (2 unchanged)
                      {
                        "id": 3,
                -       "isComplete": true,
                +       "isComplete": false,
                        "title": "Milk"
                      }
                    ]
                  }
                """)
        #expect(diff.summary == "1 difference: todos[id: 3].isComplete  true -> false")
    }

    @Test func oneInsertionInTheMiddleIsOneChange() {
        let old: JSONValue = .array((0..<100).map { .integer($0) })
        var elements = old.arrayValue!
        elements.insert(.string("new"), at: 50)
        let diff = StateDiff(from: old, to: .array(elements))
        #expect(diff.changes == [StateDiff.Change(path: [.index(50)], kind: .added(.string("new")))])
    }

    @Test func reportsAddedRemovedAndRetypedMembers() {
        let old: JSONValue = .object(["a": .integer(1), "b": .array([]), "gone": .null])
        let new: JSONValue = .object(["a": .integer(1), "b": .object([:]), "new": .bool(true)])
        let diff = StateDiff(from: old, to: new)
        #expect(diff.changes.map(\.path.description) == ["b", "gone", "new"])
        #expect(
            diff.summary == """
                3 differences:
                  b  [] -> {}
                  gone  null -> (absent)
                  new  (absent) -> true
                """)
        #expect(
            diff.rendered() == """
                  {
                    "a": 1,
                -   "b": [],
                +   "b": {},
                -   "gone": null,
                +   "new": true
                  }
                """)
    }

    @Test func rendersChangedRemovedAndUnchangedElementsOfAnArray() {
        // Given an array whose second element changed inside and whose last element is gone
        let old: JSONValue = .array([.integer(1), .object(["a": .integer(1)]), .integer(3), .integer(4)])
        let new: JSONValue = .array([.integer(1), .object(["a": .integer(2)]), .integer(3)])

        // When they are diffed, then the dump shows the unchanged scalars as context around the two changes
        #expect(
            StateDiff(from: old, to: new).rendered() == """
                  [
                    1,
                    {
                -     "a": 1
                +     "a": 2
                    },
                    3,
                -   4
                  ]
                """)
    }

    @Test func equalValuesHaveNoDiff() {
        let value: JSONValue = .object(["x": .array([.integer(1)])])
        #expect(StateDiff(from: value, to: value).isEmpty)
        #expect(diff(value, value) == nil)
    }

    @Test func theDataFormNamesPathKindAndValues() {
        let diff = StateDiff(from: .object(["n": .integer(1)]), to: .object(["n": .integer(2)]))
        #expect(
            diff.jsonValue
                == .array([
                    .object([
                        "path": .string("n"), "components": .array([.string("n")]), "kind": .string("changed"),
                        "old": .integer(1), "new": .integer(2),
                    ])
                ]))
    }

    @Test func stringsThatDifferOnlyByNormalizationAreAChange() {
        // Given "é" precomposed and as "e" with a combining accent, equal as Swift Strings
        let recorded: JSONValue = .object(["name": .string("\u{E9}")])
        let replayed: JSONValue = .object(["name": .string("e\u{301}")])

        // Then the diff shows one change where the bytes differ
        let diff = StateDiff(from: recorded, to: replayed)
        #expect(diff.changes.map(\.path.description) == ["name"])
        #expect(diff.summary == "1 difference: name  \"\u{E9}\" -> \"e\u{301}\"")
    }

    @Test func keyedPairArraysAreDiffedAsMapsWhenTold() throws {
        // Given a map of struct keys to scores, written as sorted alternating keys and values, where one pair's
        // value changes, one pair goes and one comes
        let first: JSONValue = .object(["id": .integer(1)])
        let second: JSONValue = .object(["id": .integer(2)])
        let third: JSONValue = .object(["id": .integer(3)])
        let old: JSONValue = .object(["scores": .array([first, .integer(10), second, .integer(20)])])
        let new: JSONValue = .object(["scores": .array([first, .integer(11), third, .integer(30)])])
        let places = EncodedTypeNotes([.keyedPairArrays: [[.member("scores")]]])

        // When they are diffed knowing where the pairs are
        let diff = StateDiff(from: old, to: new, typeNotes: places)

        // Then each pair is compared by its key, and the dump shows pairs as `key: value`
        #expect(
            diff.summary == """
                3 differences:
                  scores[key: {"id":1}]  10 -> 11
                  scores[key: {"id":2}]  20 -> (absent)
                  scores[key: {"id":3}]  (absent) -> 30
                """)
        #expect(
            diff.rendered() == """
                  {
                    "scores": [
                -     {"id":1}: 10,
                +     {"id":1}: 11,
                -     {"id":2}: 20,
                +     {"id":3}: 30
                    ]
                  }
                """)
        // Without being told, the same arrays are arrays
        #expect(StateDiff(from: old, to: new).changes.map(\.path.description) == ["scores[1]", "scores[2].id", "scores[3]"])
    }

    // A sync-up app's state: sync-ups keyed by UUID strings, each with meetings keyed by integers, and a navigation
    // stack whose elements hold an enum state with an unlabelled payload (`{"record": {"_0": …}}`).
    private static let design = "3F2504E0-4F89-11D3-9A0C-0305E82C3301"
    private static let standup = "9B1DEB4D-3B7D-4BAD-9BDD-2B0D7B3DCB6D"

    private static func meeting(_ id: Int, _ transcript: String) -> JSONValue {
        .object(["id": .integer(Int64(id)), "transcript": .string(transcript)])
    }

    private static func syncUp(_ id: String, _ title: String, meetings: [JSONValue]) -> JSONValue {
        .object(["id": .string(id), "title": .string(title), "meetings": .array(meetings)])
    }

    private static func appState(syncUps: [JSONValue], speakerIndex: Int = 1) -> JSONValue {
        .object([
            "path": .array([
                .object(["id": .integer(0), "state": .object(["detail": .object(["_0": .object(["syncUpID": .string(design)])])])]),
                .object([
                    "id": .integer(1),
                    "state": .object(["record": .object(["_0": .object(["speakerIndex": .integer(Int64(speakerIndex))])])]),
                ]),
            ]),
            "syncUps": .array(syncUps),
        ])
    }

    private static let meetings = [meeting(1, "kickoff"), meeting(2, "review"), meeting(3, "retro")]

    @Test func reversingTwoIdentifiedElementsIsOneMove() {
        // Given a sync-up whose first two meetings swap places
        let old = Self.appState(syncUps: [Self.syncUp(Self.design, "Design", meetings: Self.meetings)])
        let swapped = [Self.meetings[1], Self.meetings[0], Self.meetings[2]]
        let new = Self.appState(syncUps: [Self.syncUp(Self.design, "Design", meetings: swapped)])

        // When they are diffed
        let diff = StateDiff(from: old, to: new)

        // Then the meeting that moved to the front is one change, at its id, not a change at every index
        #expect(
            diff.changes == [
                StateDiff.Change(
                    path: [.key("syncUps"), .identified(.string(Self.design)), .key("meetings"), .identified(.integer(2))],
                    kind: .moved(from: 1, to: 0))
            ])
        #expect(diff.summary == "1 difference: syncUps[id: \(Self.design)].meetings[id: 2]  moved from 1 to 0")
        #expect(
            diff.rendered() == """
                  {
                    ... (1 unchanged)
                    "syncUps": [
                      {
                        "id": "3F2504E0-4F89-11D3-9A0C-0305E82C3301",
                        "meetings": [
                          (moved from 1 to 0) {
                            "id": 2,
                            "transcript": "review"
                          },
                          ... (2 unchanged)
                        ],
                        "title": "Design"
                      }
                    ]
                  }
                """)
        // Without ids, the same arrays differ at two indices, four leaves
        #expect(StateDiff(from: old, to: new, matchingElementsByID: false).changes.count == 4)
    }

    @Test func aReorderIsTheFewestMovesAroundTheLongestRunThatKeptItsOrder() {
        // Given five meetings where the last comes first and the second goes last: [5, 1, 3, 4, 2]
        let five = (1...5).map { Self.meeting($0, "m\($0)") }
        let reordered = [five[4], five[0], five[2], five[3], five[1]]

        // Then 1, 3, 4 stay and two moves say where 5 and 2 went
        let diff = StateDiff(from: .array(five), to: .array(reordered))
        #expect(
            diff.summary == """
                2 differences:
                  [id: 5]  moved from 4 to 0
                  [id: 2]  moved from 1 to 4
                """)
    }

    @Test func identifiedElementsAreAddedRemovedAndChangedByID() {
        // Given the sync-up list loses "Design", gains "Standup" in front, and the record screen's speaker changes
        let design = Self.syncUp(Self.design, "Design", meetings: Self.meetings)
        let standup = Self.syncUp(Self.standup, "Standup", meetings: [])
        let planning = Self.syncUp("planning", "Planning", meetings: [])
        let old = Self.appState(syncUps: [design, planning], speakerIndex: 1)
        let renamed = Self.syncUp("planning", "Plans", meetings: [])
        let new = Self.appState(syncUps: [standup, renamed], speakerIndex: 2)

        // When they are diffed
        let diff = StateDiff(from: old, to: new)

        // Then the stack element's enum payload reads without `_0`, and the sync-ups by id: one removal, one
        // insertion, one change below an id (no move: "planning" is the only element both arrays hold); the dump
        // shows the new order with the removed element at its old index
        #expect(
            diff.summary == """
                4 differences:
                  path[id: 1].state.record.speakerIndex  1 -> 2
                  syncUps[id: 3F2504E0-4F89-11D3-9A0C-0305E82C3301]  {"id":"3F2504E0-4F89-11D3-9A0C-0305E82C3301","meetings":[... -> (absent)
                  syncUps[id: 9B1DEB4D-3B7D-4BAD-9BDD-2B0D7B3DCB6D]  (absent) -> {"id":"9B1DEB4D-3B7D-4BAD-9BDD-2B0D7B3DCB6D","meetings":[...
                  syncUps[id: planning].title  "Planning" -> "Plans"
                """)
        #expect(
            diff.rendered() == """
                  {
                    "path": [
                      ... (1 unchanged)
                      {
                        "id": 1,
                        "state": {
                          "record": {
                            "_0": {
                -             "speakerIndex": 1
                +             "speakerIndex": 2
                            }
                          }
                        }
                      }
                    ],
                    "syncUps": [
                -     {
                -       "id": "3F2504E0-4F89-11D3-9A0C-0305E82C3301",
                -       "meetings": [
                -         {
                -           "id": 1,
                -           "transcript": "kickoff"
                -         },
                -         {
                -           "id": 2,
                -           "transcript": "review"
                -         },
                -         {
                -           "id": 3,
                -           "transcript": "retro"
                -         }
                -       ],
                -       "title": "Design"
                -     },
                +     {
                +       "id": "9B1DEB4D-3B7D-4BAD-9BDD-2B0D7B3DCB6D",
                +       "meetings": [],
                +       "title": "Standup"
                +     },
                      {
                        "id": "planning",
                        "meetings": [],
                -       "title": "Planning"
                +       "title": "Plans"
                      }
                    ]
                  }
                """)
    }

    @Test(arguments: [
        // Duplicate ids, a missing id, an id that is not a scalar, an element that is not an object
        [["id": .integer(1), "n": .integer(1)], ["id": .integer(1), "n": .integer(2)]], [["id": .integer(1)], ["name": .integer(2)]],
        [["id": .integer(1)], ["id": .array([.integer(1)])]], [["id": .integer(1)], [:]],
    ] as [[[String: JSONValue]]])
    func arraysWithoutUniqueScalarIDsAreComparedByPosition(_ elements: [[String: JSONValue]]) {
        // Given such an array reversed
        let old = JSONValue.array(elements.map(JSONValue.object))
        let new = JSONValue.array(elements.reversed().map(JSONValue.object))

        // Then every change is at an index
        let diff = StateDiff(from: old, to: new)
        #expect(!diff.isEmpty)
        #expect(diff.changes.allSatisfy { change in change.path.components.allSatisfy { if case .identified = $0 { false } else { true } } })
    }

    @Test func reversingThreeMovesTheEndsAroundTheMiddleOneThatKeptItsPlace() {
        // Any one of the three could stay; the middle one is also where it was, so the moves read as a swap
        let diff = StateDiff(from: .array(Self.meetings), to: .array(Self.meetings.reversed()))
        #expect(
            diff.summary == """
                2 differences:
                  [id: 3]  moved from 2 to 0
                  [id: 1]  moved from 0 to 2
                """)
    }

    @Test func aShuffleIsAsFewMovesAsElementsOutsideALongestRunThatKeptItsOrder() {
        // Given 200 shuffles of 1 to 40 elements (a fixed linear congruential sequence, so every run is the same)
        var seed: UInt64 = 19
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        for _ in 0..<200 {
            let count = 1 + next(40)
            let old = (0..<count).map { Self.meeting($0, "m\($0)") }
            var order = Array(0..<count)
            for index in stride(from: count - 1, to: 0, by: -1) { order.swapAt(index, next(index + 1)) }

            // When the shuffled array is diffed with the original
            let changes = StateDiff(from: .array(old), to: .array(order.map { old[$0] })).changes

            // Then every change is a move, and their number is what a longest increasing run leaves out
            var longest = [Int](repeating: 1, count: count)
            for end in 0..<count {
                for start in 0..<end where order[start] < order[end] { longest[end] = max(longest[end], longest[start] + 1) }
            }
            #expect(changes.count == count - (longest.max() ?? 0))
            #expect(changes.allSatisfy { if case .moved = $0.kind { true } else { false } })
        }
    }

    @Test func movesSurviveTheDataForm() {
        let diff = StateDiff(from: .array(Self.meetings), to: .array(Self.meetings.reversed()))
        #expect(
            diff.jsonValue
                == .array([
                    .object([
                        "path": .string("[id: 3]"), "components": .array([.object(["id": .integer(3)])]),
                        "kind": .string("moved"), "from": .integer(2), "to": .integer(0),
                    ]),
                    .object([
                        "path": .string("[id: 1]"), "components": .array([.object(["id": .integer(1)])]),
                        "kind": .string("moved"), "from": .integer(0), "to": .integer(2),
                    ]),
                ]))
    }

    @Test func keysThatDifferOnlyByNormalizationAreARemovalAndAnAdditionAtAnyDepth() throws {
        // Given "é" precomposed as a key at the top and nested, and decomposed in the new value
        let old = try JSONValue(parsing: "{\"\u{E9}\":1,\"x\":{\"k\":[{\"\u{E9}\":true}]}}")
        let new = try JSONValue(parsing: "{\"e\u{301}\":1,\"x\":{\"k\":[{\"e\u{301}\":true}]}}")

        // When they are diffed
        let diff = StateDiff(from: old, to: new)

        // Then each old key is removed and each new one added, with paths that print apart
        #expect(
            diff.changes == [
                .init(path: [.key("e\u{301}")], kind: .added(.integer(1))),
                .init(path: [.key("x"), .key("k"), .index(0), .key("e\u{301}")], kind: .added(.bool(true))),
                .init(path: [.key("x"), .key("k"), .index(0), .key("\u{E9}")], kind: .removed(.bool(true))),
                .init(path: [.key("\u{E9}")], kind: .removed(.integer(1))),
            ])
        #expect(diff.changes.map(\.path.description) == [#"["e\u{301}"]"#, #"x.k[0]["e\u{301}"]"#, "x.k[0].\u{E9}", "\u{E9}"])
        #expect(JSONPath([.key("e\u{301}")]) != JSONPath([.key("\u{E9}")]))
    }

    @Test func stringIdsThatDifferOnlyByNormalizationAreDifferentElements() throws {
        let old = try JSONValue(parsing: "[{\"id\":\"\u{E9}\",\"v\":1},{\"id\":2,\"v\":2}]")
        let new = try JSONValue(parsing: "[{\"id\":\"e\u{301}\",\"v\":1},{\"id\":2,\"v\":2}]")

        let diff = StateDiff(from: old, to: new)

        #expect(
            diff.changes.map(\.path) == [[.identified(.string("\u{E9}"))], [.identified(.string("e\u{301}"))]])
        #expect(diff.summary.hasPrefix(#"2 differences:"#))
        #expect(diff.changes.map(\.path.description) == [#"[id: "\#u{E9}"]"#, #"[id: "e\u{301}"]"#])
    }

    @Test func stringValuesThatDifferOnlyByNormalizationChange() throws {
        let diff = StateDiff(from: .object(["s": .string("\u{E9}")]), to: .object(["s": .string("e\u{301}")]))
        #expect(diff.changes == [.init(path: [.key("s")], kind: .changed(from: .string("\u{E9}"), to: .string("e\u{301}")))])
    }

    @Test func integersSpelledWithAFractionOrExponentCompareByTheirExactValue() throws {
        let old = try JSONValue(parsing: #"{"a":9007199254740993,"b":18446744073709551617,"c":-9223372036854775809,"d":1}"#)
        let new = try JSONValue(parsing: #"{"a":9007199254740993.0,"b":1844674407370955161700e-2,"c":-9223372036854775809.0,"d":1.0}"#)
        #expect(StateDiff(from: old, to: new).isEmpty)

        let neighbour = try JSONValue(parsing: #"{"a":9007199254740992,"b":18446744073709551617,"c":-9223372036854775809,"d":1}"#)
        #expect(
            StateDiff(from: neighbour, to: new).changes == [
                .init(path: [.key("a")], kind: .changed(from: .integer(9_007_199_254_740_992), to: .integer(9_007_199_254_740_993)))
            ])
    }
}
