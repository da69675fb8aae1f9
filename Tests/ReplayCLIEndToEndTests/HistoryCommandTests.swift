import Foundation
import Testing

/// `history SESSION PATH`: every step that changed a place, with old -> new; exit 0 when some did, 1 when none did,
/// 2 on bad input.
@Suite struct HistoryCommandTests {
    @Test func historyListsEveryStepThatChangedThePathAndWhereAGapHidesIt() async throws {
        // Given a session with patch lines, an effect and a gap of steps 4-5
        let path = try TodosWithGap.write()
        defer { try? FileManager.default.removeItem(atPath: path) }

        // When the history of every todo's isComplete is asked for
        let outcome = try await CLI.run(["history", path, "todos[*].isComplete"])

        // Then each step that set it is listed (an added todo as the place inside it), the gap where it was, and
        // the count
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stdout == """
                history of todos[*].isComplete in \(path), store "todos"
                     1     0.100s  app              addTodo(id: "A", title: "Milk")
                       todos[id: A].isComplete  (absent) -> false
                     2     0.200s  app              addTodo(id: "B", title: "Eggs")
                       todos[id: B].isComplete  (absent) -> false
                     3     0.300s  app              todo(.toggleCompleted(id: "A"))
                       todos[id: A].isComplete  false -> true
                     - gap: steps 4-5 lost (bufferFull): what they did to todos[*].isComplete is unknown
                     6     0.600s  effect of 3      todo(.reminder(.fired(id: "B")))
                       (changes since step 3, before the gap)
                       todos[id: B].isComplete  false -> true
                4 of 5 recorded steps changed todos[*].isComplete; steps 4-5 were lost in a gap and may hide more

                """)
    }

    @Test func theConclusionTellsStepsAGapKeptWithoutTheirStatesFromStepsGapsLost() async throws {
        // Given the counter sample with steps 3-12 in a gap that kept their actions, and steps 20-21 in one that lost
        // them
        let kept = try GappedStepsTests.keptGapCounterSession()
        defer { try? FileManager.default.removeItem(atPath: kept) }
        let lines = try String(contentsOfFile: kept, encoding: .utf8).split(separator: "\n").map(String.init)
        let lostIndex = try #require(lines.firstIndex { $0.contains(#""seq":20,"#) })
        let path = kept + ".lost.jsonl"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let withLost =
            lines[..<lostIndex] + [#"{"count":2,"from":20,"kind":"gap","reason":"bufferFull","to":21}"#]
            + lines[(lostIndex + 2)...]
        try Data(withLost.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: path))

        // When the history of the count is asked for
        let outcome = try await CLI.run(["history", path, "count"])

        // Then its last line names each kind of gap as what it is: kept actions are not lost ones
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stdout.split(separator: "\n").last
                == "25 of 28 recorded steps changed count; steps 20-21 were lost in a gap and steps 3-12 were kept without their states; they may hide more")
    }

    @Test func anIndexInThePathMatchesTheElementAChangeNamesByID() async throws {
        // Given the session, whose todos are identified (changes name them `todos[id: A]`) and A is always first
        let path = try TodosWithGap.write()
        defer { try? FileManager.default.removeItem(atPath: path) }

        // When the history of the first todo is asked for by index
        let outcome = try await CLI.run(["history", path, "todos[0]"])

        // Then A's steps are listed, not B's (step 2 added B at index 1)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stdout == """
                history of todos[0] in \(path), store "todos"
                     1     0.100s  app              addTodo(id: "A", title: "Milk")
                       todos[id: A]  (absent) -> {"id":"A","isComplete":false,"title":"Milk"}
                     3     0.300s  app              todo(.toggleCompleted(id: "A"))
                       todos[id: A].isComplete  false -> true
                     - gap: steps 4-5 lost (bufferFull): what they did to todos[0] is unknown
                     6     0.600s  effect of 3      todo(.reminder(.fired(id: "B")))
                       (changes since step 3, before the gap)
                       todos[id: A].title  "Milk" -> "Oat milk"
                3 of 5 recorded steps changed todos[0]; steps 4-5 were lost in a gap and may hide more

                """)
    }

    @Test func aPathThroughAnEnumPayloadLeavesOutItsUnderscoreZeroAndSeesTheCaseLeave() async throws {
        // Given a state whose route is an enum case with an unlabeled payload (`{"edit": {"_0": {...}}}`)
        let lines = [
            #"{"app":{"build":"1","name":"SampleApp","schemaVersion":"1","version":"1.0"},"format":1,"host":"vm","initialState":{"count":0,"route":{"edit":{"_0":{"title":"a"}}}},"kind":"session","metadata":{},"pid":1,"sessionId":"00000000-0000-0000-0000-000000000022","startedAt":"2026-11-23T10:00:00.000Z","storeId":"todos"}"#,
            #"{"action":{"edit":{"_0":{"setTitle":{"_0":"b"}}}},"kind":"action","name":"edit.setTitle","origin":"app","seq":1,"state":{"count":0,"route":{"edit":{"_0":{"title":"b"}}}},"time":0.1}"#,
            #"{"action":{"increment":{}},"kind":"action","name":"increment","origin":"app","seq":2,"state":{"count":1,"route":{"edit":{"_0":{"title":"b"}}}},"time":0.2}"#,
            #"{"action":{"close":{}},"kind":"action","name":"close","origin":"app","seq":3,"state":{"count":1,"route":{"list":{}}},"time":0.3}"#,
            #"{"actions":3,"dropped":0,"kind":"end","reason":"finished","time":0.4}"#,
        ]
        let path = "/tmp/skr-look-\(UUID().uuidString.prefix(8)).jsonl"
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }

        // When the history of the edited title is asked for as paths print it, without `_0`
        let outcome = try await CLI.run(["history", path, "route.edit.title"])

        // Then the title's edit is listed, the step that left it alone is not, and leaving the case removes it
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stdout == """
                history of route.edit.title in \(path), store "todos"
                     1     0.100s  app              edit(.setTitle("b"))
                       route.edit.title  "a" -> "b"
                     3     0.300s  app              close
                       route.edit.title  "b" -> (absent)
                2 of 3 recorded steps changed route.edit.title

                """)
    }

    @Test func aPathThatNeverChangedIsExitOneWithALineSayingSo() async throws {
        // Given the session, whose todos have no 'dueDate'
        let path = try TodosWithGap.write()
        defer { try? FileManager.default.removeItem(atPath: path) }

        // When its history is asked for
        let outcome = try await CLI.run(["history", path, "todos[0].dueDate"])

        // Then exit 1, as grep finding nothing
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(
            outcome.stdout == """
                history of todos[0].dueDate in \(path), store "todos"
                     - gap: steps 4-5 lost (bufferFull): what they did to todos[0].dueDate is unknown
                todos[0].dueDate never changed in 5 recorded steps; steps 4-5 were lost in a gap and may hide more

                """)
    }

    @Test func jsonCarriesTheStepsWithTheirChangesAndTheGaps() async throws {
        // Given the session
        let path = try TodosWithGap.write()
        defer { try? FileManager.default.removeItem(atPath: path) }

        // When the history of todo A, by id, is asked for as JSON
        let outcome = try await CLI.run(["history", path, "todos[id: A].title", "--json"])

        // Then its two steps, the one across the gap marked with the step it was compared with
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stdout == """
                {
                  "actions": 5,
                  "changedSteps": 2,
                  "gaps": [
                    {
                      "count": 2,
                      "from": 4,
                      "kind": "gap",
                      "reason": "bufferFull",
                      "to": 5
                    }
                  ],
                  "path": "todos[id: A].title",
                  "steps": [
                    {
                      "changes": [
                        {
                          "components": [
                            "todos",
                            {
                              "id": "A"
                            },
                            "title"
                          ],
                          "kind": "added",
                          "new": "Milk",
                          "path": "todos[id: A].title"
                        }
                      ],
                      "name": "addTodo",
                      "origin": "app",
                      "step": 1,
                      "time": 0.1
                    },
                    {
                      "changes": [
                        {
                          "components": [
                            "todos",
                            {
                              "id": "A"
                            },
                            "title"
                          ],
                          "kind": "changed",
                          "new": "Oat milk",
                          "old": "Milk",
                          "path": "todos[id: A].title"
                        }
                      ],
                      "comparedWithStep": 3,
                      "name": "todo.reminder.fired",
                      "origin": "effect of 3",
                      "step": 6,
                      "time": 0.6
                    }
                  ]
                }

                """)
    }

    @Test(arguments: [
        (["todos[x"], "Error: <path>: bad path pattern 'todos[x' at character 6: '[' is never closed with ']'\n"),
        (["todos..title"], "Error: <path>: bad path pattern 'todos..title' at character 7: expected a member name or '*'\n"),
    ])
    func aBadPathIsExitTwoNamingThePosition(_ arguments: [String], _ error: String) async throws {
        let outcome = try await CLI.run(["history", CLI.session("todos-basic.jsonl")] + arguments)
        #expect(outcome.status == 2)
        #expect(outcome.stdout == "")
        #expect(outcome.stderr == error)
    }

    @Test func theRehearsalSampleFollowsASetlistNameAcrossAddsAndDeletes() async throws {
        // Given the realistic sample, whose setlists are added, and deleted from a nested detail's confirmation
        // When the history of every setlist's name is asked for
        let outcome = try await CLI.run(["history", CLI.session("rehearsals-journey.jsonl"), "setlists.setlists[*].name"])

        // Then each add and delete is listed with the action that did it
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stdout == """
                history of setlists.setlists[*].name in \(CLI.session("rehearsals-journey.jsonl")), store "rehearsals"
                    15     0.003s  app              setlists(.confirmAddTapped)
                       setlists.setlists[id: C1675E0B-B980-4575-A896-61FEC08AA83B].name  (absent) -> "Warm-ups"
                    49     0.004s  app              setlists(.confirmAddTapped)
                       setlists.setlists[id: 6FD66C7B-5A26-4EA2-9712-2FC402BB22DE].name  (absent) -> "Friday at The Anchor"
                   168     0.022s  app              setlists(.confirmAddTapped)
                       setlists.setlists[id: A6F81F05-768E-4321-8D18-9A894B2364E7].name  (absent) -> "Sunday jam"
                   169     0.022s  app              setlists(.deleteSetlist(id: "A6F81F05-768E-4321-8D18-9A894B2364E7"))
                       setlists.setlists[id: A6F81F05-768E-4321-8D18-9A894B2364E7].name  "Sunday jam" -> (absent)
                   225     0.048s  app              setlists(.confirmAddTapped)
                       setlists.setlists[id: 84B3B39A-6811-4B97-B084-AF58440A05AC].name  (absent) -> "Covers to learn"
                   230     0.048s  app              path(.element(action: .detail(.destination(.deletionConfirmed)), id: 11))
                       setlists.setlists[id: 84B3B39A-6811-4B97-B084-AF58440A05AC].name  "Covers to learn" -> (absent)
                   246     0.049s  app              setlists(.confirmAddTapped)
                       setlists.setlists[id: 32F61522-9F55-4E67-AD77-91272A9FFCA3].name  (absent) -> "Warm-ups (2)"
                   279     0.050s  app              setlists(.confirmAddTapped)
                       setlists.setlists[id: C2CCF7DD-1B77-4BDC-8140-A71C2107AE66].name  (absent) -> "Friday at The Anchor (2)"
                8 of 320 recorded steps changed setlists.setlists[*].name

                """)
    }
}
