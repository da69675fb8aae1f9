import Foundation
import Testing

/// `log --diff`, `--full` and the filters, on a session with patch lines, an effect and a gap, and on the
/// rehearsal sample.
@Suite struct LogDiffTests {
    static let header = #"session 00000000-0000-0000-0000-000000000020, store "todos", SampleApp 1.0, started 2026-11-23T10:00:00.000Z"#

    @Test func diffListsEachChangeUnderItsActionAndSaysWhenTheStateComparedWithIsFromBeforeAGap() async throws {
        // Given a session whose step 6 follows a gap of steps 4-5
        let path = try TodosWithGap.write()
        defer { try? FileManager.default.removeItem(atPath: path) }

        // When it is logged with --diff
        let outcome = try await CLI.run(["log", path, "--diff"])

        // Then each change is one line under its action, and the gap and the end stay
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stdout == """
                \(Self.header)
                     1     0.100s  app              1 change     addTodo(id: "A", title: "Milk")
                       todos[id: A]  (absent) -> {"id":"A","isComplete":false,"title":"Milk"}
                     2     0.200s  app              1 change     addTodo(id: "B", title: "Eggs")
                       todos[id: B]  (absent) -> {"id":"B","isComplete":false,"title":"Eggs"}
                     3     0.300s  app              1 change     todo(.toggleCompleted(id: "A"))
                       todos[id: A].isComplete  false -> true
                     - gap: steps 4-5 lost (bufferFull)
                     6     0.600s  effect of 3      2 changes    todo(.reminder(.fired(id: "B")))
                       (changes since step 3, before the gap)
                       todos[id: A].title  "Milk" -> "Oat milk"
                       todos[id: B].isComplete  false -> true
                     7     0.700s  app              1 change     setFilter("done")
                       filter  "all" -> "done"
                     - end: finished after 0.800 s, 7 actions, 2 dropped

                """)
    }

    @Test func aGapOfOneStepSaysWhyInTheRecordersWordsWithItsLineBreaksEscaped() async throws {
        // Given a session whose step 4 is an action an adapter could not encode, its message holding a line break
        var lines = Array(TodosWithGap.lines.prefix(4))
        lines.append(
            #"{"count":1,"from":4,"kind":"gap","message":"'ShowAlert' was not recorded:\n     5  forged","reason":"notEncodable","to":4}"#)
        lines.append(#"{"actions":4,"dropped":1,"kind":"end","reason":"finished","time":0.8}"#)
        let path = "/tmp/skr-look-\(UUID().uuidString.prefix(8)).jsonl"
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }

        // When it is logged
        let outcome = try await CLI.run(["log", path])

        // Then the gap names its one step and the recorder's message, on one line
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stdout == #"""
                \#(Self.header)
                     1     0.100s  app              1 change     addTodo(id: "A", title: "Milk")
                     2     0.200s  app              1 change     addTodo(id: "B", title: "Eggs")
                     3     0.300s  app              1 change     todo(.toggleCompleted(id: "A"))
                     - gap: step 4 lost (notEncodable: 'ShowAlert' was not recorded:\n     5  forged)
                     - end: finished after 0.800 s, 4 actions, 1 dropped

                """#)
    }

    @Test func pathKeepsTheStepsThatChangedItAndFullDumpsOnlyThoseChanges() async throws {
        // Given the session
        let path = try TodosWithGap.write()
        defer { try? FileManager.default.removeItem(atPath: path) }

        // When the steps from 3 on that changed any todo's isComplete are logged with the dump
        let outcome = try await CLI.run(["log", path, "--full", "--path", "todos[*].isComplete", "--from", "3"])

        // Then step 7 (the filter) is left out, step 6 shows its isComplete change only, and the gap stays
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stdout == """
                \(Self.header)
                     3     0.300s  app              1 change     todo(.toggleCompleted(id: "A"))
                       todos[id: A].isComplete  false -> true
                         {
                           "filter": "all",
                           "todos": [
                             {
                               "id": "A",
                       -       "isComplete": false,
                       +       "isComplete": true,
                               "title": "Milk"
                             },
                             ... (1 unchanged)
                           ]
                         }
                     - gap: steps 4-5 lost (bufferFull)
                     6     0.600s  effect of 3      2 changes    todo(.reminder(.fired(id: "B")))
                       (changes since step 3, before the gap)
                       todos[id: B].isComplete  false -> true
                         {
                           "filter": "all",
                           "todos": [
                             ... (1 unchanged)
                             {
                               "id": "B",
                       -       "isComplete": false,
                       +       "isComplete": true,
                               "title": "Eggs"
                             }
                           ]
                         }
                     - end: finished after 0.800 s, 7 actions, 2 dropped

                """)
    }

    @Test func nameMatchesWholeDotSeparatedPartsAndCombinesWithOrigin() async throws {
        // Given the session, whose 'todo.…' actions come from the app (step 3) and from an effect (step 6)
        let path = try TodosWithGap.write()
        defer { try? FileManager.default.removeItem(atPath: path) }

        // When the app's actions under 'todo' are logged, and then those under 'tod'
        let app = try await CLI.run(["log", path, "--name", "todo", "--origin", "app"])
        let partial = try await CLI.run(["log", path, "--name", "tod"])

        // Then only step 3 is listed; 'tod' is not a whole part of any name
        #expect(app.status == 0, "\(app.stderr)")
        #expect(
            app.stdout == """
                \(Self.header)
                     3     0.300s  app              1 change     todo(.toggleCompleted(id: "A"))
                     - gap: steps 4-5 lost (bufferFull)
                     - end: finished after 0.800 s, 7 actions, 2 dropped

                """)
        #expect(
            partial.stdout == """
                \(Self.header)
                     - gap: steps 4-5 lost (bufferFull)
                     - end: finished after 0.800 s, 7 actions, 2 dropped

                """)
    }

    @Test func jsonWithDiffCarriesTheChangesAsDiffJSONWritesThem() async throws {
        // Given the session
        let path = try TodosWithGap.write()
        defer { try? FileManager.default.removeItem(atPath: path) }

        // When the actions whose JSON holds "Eggs"... or "B" are logged as JSON with their changes
        let outcome = try await CLI.run(["log", path, "--json", "--diff", "--grep", #""id":"B""#, "--to", "6"])

        // Then step 2 (addTodo B) and step 6 (fired B) are listed with their changes, and the gap and end too
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stdout == """
                [
                  {
                    "changes": 1,
                    "diff": [
                      {
                        "components": [
                          "todos",
                          {
                            "id": "B"
                          }
                        ],
                        "kind": "added",
                        "new": {
                          "id": "B",
                          "isComplete": false,
                          "title": "Eggs"
                        },
                        "path": "todos[id: B]"
                      }
                    ],
                    "kind": "action",
                    "name": "addTodo",
                    "origin": "app",
                    "step": 2,
                    "time": 0.2
                  },
                  {
                    "count": 2,
                    "from": 4,
                    "kind": "gap",
                    "reason": "bufferFull",
                    "to": 5
                  },
                  {
                    "changes": 2,
                    "comparedWithStep": 3,
                    "diff": [
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
                      },
                      {
                        "components": [
                          "todos",
                          {
                            "id": "B"
                          },
                          "isComplete"
                        ],
                        "kind": "changed",
                        "new": true,
                        "old": false,
                        "path": "todos[id: B].isComplete"
                      }
                    ],
                    "kind": "action",
                    "name": "todo.reminder.fired",
                    "origin": "effect of 3",
                    "step": 6,
                    "time": 0.6
                  },
                  {
                    "actions": 7,
                    "dropped": 2,
                    "kind": "end",
                    "reason": "finished",
                    "time": 0.8
                  }
                ]

                """)
    }

    @Test func aMoveCountsForTheElementButNotForWhatItHolds() async throws {
        // Given the rehearsal sample, where the user drags a setlist to the top twice
        let session = CLI.session("rehearsals-journey.jsonl")

        // When the moves are logged by the setlists they changed, and by their names
        let elements = try await CLI.run(["log", session, "--name", "setlists.moveSetlist", "--diff", "--path", "setlists.setlists[*]"])
        let names = try await CLI.run(["log", session, "--name", "setlists.moveSetlist", "--path", "setlists.setlists[*].name"])

        // Then each move is a change of the element, and none of its name
        #expect(elements.status == 0, "\(elements.stderr)")
        #expect(
            elements.stdout == """
                session 6bb99fd6-a459-4823-b266-087198599cc3, store "rehearsals", SampleApp 1.0, started 2026-11-26T05:50:33.324Z
                    50     0.004s  app              1 change     setlists(.moveSetlist(from: 1, to: 0))
                       setlists.setlists[id: 6FD66C7B-5A26-4EA2-9712-2FC402BB22DE]  moved from 1 to 0
                   280     0.050s  app              1 change     setlists(.moveSetlist(from: 3, to: 0))
                       setlists.setlists[id: C2CCF7DD-1B77-4BDC-8140-A71C2107AE66]  moved from 3 to 0
                     - end: finished after 1.292 s, 320 actions, 0 dropped

                """)
        #expect(
            names.stdout == """
                session 6bb99fd6-a459-4823-b266-087198599cc3, store "rehearsals", SampleApp 1.0, started 2026-11-26T05:50:33.324Z
                     - end: finished after 1.292 s, 320 actions, 0 dropped

                """)
    }

    @Test(arguments: [
        (["--path", "todos[x"], "Error: --path: bad path pattern 'todos[x' at character 6: '[' is never closed with ']'\n"),
        (["--from", "5", "--to", "3"], "Error: --from 5 is after --to 3\nUsage: \(LogDiffTests.usage)\n"),
        (["--origin", "view"], "Error: option '--origin' needs one of app or effect, not 'view'\nUsage: \(LogDiffTests.usage)\n"),
    ])
    func badFiltersAreExitTwoNamingWhatIsWrong(_ options: [String], _ error: String) async throws {
        let outcome = try await CLI.run(["log", CLI.session("todos-basic.jsonl")] + options)
        #expect(outcome.status == 2)
        #expect(outcome.stdout == "")
        #expect(outcome.stderr == error)
    }

    static let usage =
        "replay-cli log [<session>] [--diff] [--full] [--follow] [--latest] [--dir <folder>] [--name <name>] [--origin app|effect] "
        + "[--grep <text>] [--from <n>] [--to <n>] [--path <path>] [--json]"

    @Test func theRehearsalSampleReadsByFeature() async throws {
        // Given the realistic sample: 320 actions with case-path names five parts deep
        // When the app's own rehearsal actions up to step 70 are logged with what they changed
        let outcome = try await CLI.run([
            "log", CLI.session("rehearsals-journey.jsonl"), "--name", "path.element.rehearsal", "--origin", "app", "--to",
            "70", "--diff",
        ])

        // Then the timer's effect ticks are left out, each action reads as Swift writes it, each change as a path
        // (a phase's change of case as one change), with the inputs of the timer runs those actions started
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stdout == """
                session 6bb99fd6-a459-4823-b266-087198599cc3, store "rehearsals", SampleApp 1.0, started 2026-11-26T05:50:33.324Z
                    53     0.005s  app              1 change     path(.element(action: .rehearsal(.startTapped), id: 2))
                       path.entries[id: 2].element.rehearsal.phase  .ready -> .countingIn(beatsLeft: 4)
                           0.006s  call                          step 53 effect 'rehearsal timer' call 0: $clock.sleep({"for":1000000000}) -> null
                           0.006s  call                          step 53 effect 'rehearsal timer' call 1: $state -> 0
                           0.006s  call                          step 53 effect 'rehearsal timer' call 2: $clock.sleep({"for":1000000000}) -> null
                           0.006s  call                          step 53 effect 'rehearsal timer' call 3: $state -> 1
                           0.006s  call                          step 53 effect 'rehearsal timer' call 4: $clock.sleep({"for":1000000000}) -> null
                           0.006s  call                          step 53 effect 'rehearsal timer' call 5: $state -> 2
                           0.006s  call                          step 53 effect 'rehearsal timer' call 6: $clock.sleep({"for":1000000000}) -> null
                           0.006s  call                          step 53 effect 'rehearsal timer' call 7: $state -> 3
                           0.006s  call                          step 53 effect 'rehearsal timer' call 8: $clock.sleep({"for":1000000000}) -> null
                           0.006s  call                          step 53 effect 'rehearsal timer' call 9: $state -> 4
                           0.007s  call                          step 53 effect 'rehearsal timer' call 10: $clock.sleep({"for":1000000000}) -> null
                           0.007s  call                          step 53 effect 'rehearsal timer' call 11: $state -> 5
                           0.007s  call                          step 53 effect 'rehearsal timer' call 12: $clock.sleep({"for":1000000000}) -> null
                           0.007s  call                          step 53 effect 'rehearsal timer' call 13: $state -> 6
                    61     0.007s  app              1 change     path(.element(action: .rehearsal(.pauseTapped), id: 2))
                       path.entries[id: 2].element.rehearsal.phase  .playing -> .paused
                    62     0.007s  app              1 change     path(.element(action: .rehearsal(.notesChanged("Groove")), id: 2))
                       path.entries[id: 2].element.rehearsal.notes  "" -> "Groove"
                    63     0.007s  app              1 change     path(.element(action: .rehearsal(.notesChanged("Groove drags a")), id: 2))
                       path.entries[id: 2].element.rehearsal.notes  "Groove" -> "Groove drags a"
                    64     0.007s  app              1 change     path(.element(action: .rehearsal(.notesChanged("Groove drags a little")), id: 2))
                       path.entries[id: 2].element.rehearsal.notes  "Groove drags a" -> "Groove drags a little"
                    65     0.007s  app              1 change     path(.element(action: .rehearsal(.resumeTapped), id: 2))
                       path.entries[id: 2].element.rehearsal.phase  .paused -> .playing
                           0.011s  call                          step 53 effect 'rehearsal timer' call 14: $clock.sleep({"for":1000000000}) cancelled
                           0.011s  effect end                    step 53 effect 'rehearsal timer' finished: 15 calls, 7 actions sent
                           0.012s  call                          step 65 effect 'rehearsal timer' call 0: $clock.sleep({"for":1000000000}) -> null
                           0.012s  call                          step 65 effect 'rehearsal timer' call 1: $state -> 0
                           0.012s  call                          step 65 effect 'rehearsal timer' call 2: $clock.sleep({"for":1000000000}) -> null
                           0.012s  call                          step 65 effect 'rehearsal timer' call 3: $state -> 1
                           0.012s  call                          step 65 effect 'rehearsal timer' call 4: $clock.sleep({"for":1000000000}) -> null
                           0.012s  call                          step 65 effect 'rehearsal timer' call 5: $state -> 2
                           0.012s  call                          step 65 effect 'rehearsal timer' call 6: $clock.sleep({"for":1000000000}) -> null
                           0.012s  call                          step 65 effect 'rehearsal timer' call 7: $state -> 3
                           0.012s  call                          step 65 effect 'rehearsal timer' call 8: $clock.sleep({"for":1000000000}) -> null
                           0.012s  call                          step 65 effect 'rehearsal timer' call 9: $state -> 4
                           0.012s  call                          step 65 effect 'rehearsal timer' call 10: $clock.sleep({"for":1000000000}) -> null
                           0.012s  call                          step 65 effect 'rehearsal timer' call 11: $state -> 5
                           0.012s  call                          step 65 effect 'rehearsal timer' call 12: $clock.sleep({"for":1000000000}) -> null
                           0.012s  call                          step 65 effect 'rehearsal timer' call 13: $state -> 6
                           0.012s  call                          step 65 effect 'rehearsal timer' call 14: $clock.sleep({"for":1000000000}) -> null
                           0.012s  call                          step 65 effect 'rehearsal timer' call 15: $state -> 7
                           0.012s  call                          step 65 effect 'rehearsal timer' call 16: $clock.sleep({"for":1000000000}) -> null
                           0.012s  call                          step 65 effect 'rehearsal timer' call 17: $state -> 8
                           0.012s  call                          step 65 effect 'rehearsal timer' call 18: $clock.sleep({"for":1000000000}) -> null
                           0.012s  call                          step 65 effect 'rehearsal timer' call 19: $state -> 9
                           0.012s  call                          step 65 effect 'rehearsal timer' call 20: $clock.sleep({"for":1000000000}) -> null
                           0.012s  call                          step 65 effect 'rehearsal timer' call 21: $state -> 10
                           0.013s  call                          step 65 effect 'rehearsal timer' call 22: $clock.sleep({"for":1000000000}) -> null
                           0.013s  call                          step 65 effect 'rehearsal timer' call 23: $state -> 11
                           0.013s  call                          step 65 effect 'rehearsal timer' call 24: $clock.sleep({"for":1000000000}) -> null
                           0.013s  call                          step 65 effect 'rehearsal timer' call 25: $state -> 12
                           0.013s  call                          step 65 effect 'rehearsal timer' call 26: $clock.sleep({"for":1000000000}) -> null
                           0.013s  call                          step 65 effect 'rehearsal timer' call 27: $state -> 13
                           0.013s  call                          step 65 effect 'rehearsal timer' call 28: $clock.sleep({"for":1000000000}) -> null
                           0.013s  call                          step 65 effect 'rehearsal timer' call 29: $state -> 14
                           0.013s  call                          step 65 effect 'rehearsal timer' call 30: $clock.sleep({"for":1000000000}) -> null
                           0.013s  call                          step 65 effect 'rehearsal timer' call 31: $state -> 15
                           0.014s  call                          step 65 effect 'rehearsal timer' call 32: $clock.sleep({"for":1000000000}) cancelled
                           0.014s  effect end                    step 65 effect 'rehearsal timer' finished: 33 calls, 16 actions sent
                     - end: finished after 1.292 s, 320 actions, 0 dropped

                """)
    }
}
