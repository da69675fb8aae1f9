import Foundation
import Testing

/// `replay-cli minimize --without-baseline` shrinks a diverging or crashing session to a few actions judged by the
/// current code alone, says that the result is unchecked, and the session it writes reproduces the same divergence or
/// crash with `diff`.
@Suite struct MinimizeCommandTests {
    /// The output with what changes from run to run (the seconds spent, the host's build) made fixed.
    private func stable(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("replayed through ") }
            .map { $0.replacingOccurrences(of: #"replayed in [0-9.]+ s"#, with: "replayed in <t> s", options: .regularExpression) }
            .joined(separator: "\n")
    }

    @Test func theTodoToggleRegressionShrinksToTheTodoAndItsToggle() async throws {
        // Given the todos session and a host whose toggle does nothing
        let scratch = try Scratch()
        defer { scratch.remove() }
        let small = scratch.file("small.jsonl")
        let regression = ["SAMPLE_HOST_REGRESSION": "todos-toggle"]

        // When it is minimized
        let outcome = try await CLI.run(
            ["minimize", CLI.session("todos-basic.jsonl"), "-o", small, "--no-build", "--without-baseline"], environment: regression)

        // Then 40 actions become 2 (the todo's addTodo and its toggle), with the rule that kept them
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            stable(outcome.stdout) == """
                minimized \(CLI.session("todos-basic.jsonl")): 40 -> 2 actions (4 candidates replayed in <t> s)
                not checked against a correct version (--without-baseline): its states are the current code's, so it may fail through a fixed version too
                kept: the same change at todos[id: 0BB980A5-75A8-4661-BEC0-8AA83B63F1EE].isComplete by toggleCompleted (step 5 of the original)
                wrote \(small): replay-cli diff \(small) reproduces it at step 2

                """)
        #expect(outcome.stderr.hasPrefix("minimizing \(CLI.session("todos-basic.jsonl")) within 120 s (--timeout)\n"))

        // And diff reproduces the same divergence at the last step of the written session
        let diff = try await CLI.run(["diff", small, "--no-build", "--context", "1"], environment: regression)
        #expect(diff.status == 1)
        #expect(
            stable(diff.stdout) == """
                \(small): store "todos", 2 actions, recorded by SampleApp 1.0 (build 1) on 2026-11-23
                diverged at step 2 of 2
                  action  toggleCompleted(id: "0BB980A5-75A8-4661-BEC0-8AA83B63F1EE")    (from the app, 0.000 s in)
                  before  1 addTodo(createdAt: 1795000017.2135663, id: "0BB980A5-75A8-4661-BEC0-8AA83B63F1EE", title: "Water plants")

                  state after step 2 (- recorded, + replayed)
                    {
                      "filter": "all",
                      "todos": [
                        {
                          "createdAt": 2026-11-18T11:06:57.214Z,
                          "id": "0BB980A5-75A8-4661-BEC0-8AA83B63F1EE",
                  -       "isComplete": true,
                  +       "isComplete": false,
                          "tags": [],
                          "title": "Water plants"
                        }
                      ]
                    }
                  1 difference: todos[id: 0BB980A5-75A8-4661-BEC0-8AA83B63F1EE].isComplete  true -> false

                """)

        // And with the current reducers the written session is a valid one that matches up to its last step
        let verify = try await CLI.run(["verify", small])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    }

    @Test func theRehearsalAdvanceRegressionShrinksFrom320Actions() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let small = scratch.file("small.jsonl")
        let regression = ["SAMPLE_HOST_REGRESSION": "rehearsal-advance"]

        // (A budget far above the search's few seconds: on a loaded machine the default 120 s once cut it short.)
        let outcome = try await CLI.run(
            ["minimize", CLI.session("rehearsals-journey.jsonl"), "-o", small, "--no-build", "--json", "--timeout", "1800", "--without-baseline"],
            environment: regression)

        #expect(outcome.status == 0, "\(outcome.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        let actions = try #require(json["actions"] as? [String: Int])
        #expect(actions == ["before": 320, "after": 19])
        let kept = try #require(json["kept"] as? [String: Any])
        #expect(kept["kind"] as? String == "divergence")
        #expect(kept["originalStep"] as? Int == 68)
        #expect(
            kept["paths"] as? [String] == [
                "path.entries[id: 2].element.rehearsal.elapsedInSong", "path.entries[id: 2].element.rehearsal.songIndex",
            ])
        #expect(json["finished"] as? Bool == true)
        #expect(json["checkedAgainstBaseline"] as? Bool == false)
        #expect(json["baseline"] is NSNull)

        let diff = try await CLI.run(["diff", small, "--no-build", "--json"], environment: regression)
        #expect(diff.status == 1)
        let report = try #require(
            (try JSONSerialization.jsonObject(with: Data(diff.stdout.utf8)) as? [String: Any])?["report"] as? [String: Any])
        let divergence = try #require((report["divergences"] as? [[String: Any]])?.first)
        #expect(divergence["step"] as? Int == 19)
        #expect(divergence["actionName"] as? String == "path.element.rehearsal.timerTick")
        let paths = (divergence["changes"] as? [[String: Any]])?.compactMap { $0["path"] as? String }
        #expect(paths == ["path.entries[id: 2].element.rehearsal.elapsedInSong", "path.entries[id: 2].element.rehearsal.songIndex"])
    }

    /// A host that replays every action (an empty state each) and crashes on a `toggleCompleted` after an `addTodo`.
    private func crashingHost(in scratch: Scratch) throws -> String {
        try scratch.write(
            "crashing-host.sh",
            #"""
            #!/bin/sh
            board=$(printf '%s' "$2" | sed 's/.*"progress":"\([^"]*\)".*/\1/')
            # A check names its session file and wants no states; `states` sends the session on standard input.
            case "$2" in *'"command":"check"'*) exec < "$(printf '%s' "$2" | sed 's/.*"sessions":\["\([^"]*\)".*/\1/')"; check=1 ;; esac
            echo '{"kind":"hello","protocol":7,"stores":["todos"]}'
            added=0
            while IFS= read -r line; do
              case "$line" in *'"kind":"action"'*) ;; *) continue ;; esac
              seq=$(printf '%s' "$line" | sed 's/.*"seq":\([0-9]*\).*/\1/')
              name=$(printf '%s' "$line" | sed 's/.*"name":"\([^"]*\)".*/\1/')
              printf '0 %s %s\n' "$seq" "$name" > "$board"
              if [ "$name" = toggleCompleted ] && [ $added = 1 ]; then kill -SEGV $$; fi
              if [ "$name" = addTodo ]; then added=1; fi
              [ -n "$check" ] || echo "{\"kind\":\"state\",\"name\":\"$name\",\"seq\":$seq,\"state\":{}}"
            done
            echo '{"kind":"result","replayed":0}'
            """#, executable: true)
    }

    @Test func aCrashShrinksToTheActionsTheCrashNeeds() async throws {
        // Given a host that crashes on toggling after adding
        let scratch = try Scratch()
        defer { scratch.remove() }
        let host = try crashingHost(in: scratch)
        let small = scratch.file("small.jsonl")

        // When the todos session is minimized through it
        let outcome = try await CLI.run(["minimize", CLI.session("todos-basic.jsonl"), "-o", small, "--host", host, "--without-baseline"])

        // Then an addTodo and the toggle are left
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            stable(outcome.stdout) == """
                minimized \(CLI.session("todos-basic.jsonl")): 40 -> 2 actions (4 candidates replayed in <t> s)
                not checked against a correct version (--without-baseline): its states are the current code's, so it may fail through a fixed version too
                kept: the host crashes on toggleCompleted (step 5 of the original)
                wrote \(small): replay-cli diff \(small) reproduces it at step 2

                """)

        // And diff through the same host crashes at its step 2
        let diff = try await CLI.run(["diff", small, "--host", host])
        #expect(diff.status == 2)
        #expect(diff.stderr.hasPrefix("Error: the replay host crashed (signal 11) at step 2 (toggleCompleted) without an answer"), "\(diff.stderr)")
    }

    @Test func aSessionThatMatchesHasNothingToMinimize() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let outcome = try await CLI.run(["minimize", CLI.session("todos-basic.jsonl"), "-o", scratch.file("small.jsonl"), "--no-build", "--without-baseline"])
        #expect(outcome.status == 2)
        #expect(
            outcome.stderr.hasSuffix(
                "Error: \(CLI.session("todos-basic.jsonl")): nothing to minimize: the session replays as 'match' (minimize needs one that diverges, whose effect diverges, or that crashes the host)\n"),
            "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("small.jsonl")))
    }

    @Test func withoutAnOutputFileItIsAUsageError() async throws {
        let outcome = try await CLI.run(["minimize", CLI.session("todos-basic.jsonl"), "--no-build"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.hasPrefix("Error: minimize needs '-o <file>' to write the smaller session to\nUsage: replay-cli minimize"))
    }

    @Test func theTimeBoundWritesTheSmallestSoFarAndSaysSo() async throws {
        // Given a bound of one second on a search that takes about ten
        let scratch = try Scratch()
        defer { scratch.remove() }
        let small = scratch.file("small.jsonl")
        let regression = ["SAMPLE_HOST_REGRESSION": "rehearsal-advance"]
        let outcome = try await CLI.run(
            ["minimize", CLI.session("rehearsals-journey.jsonl"), "-o", small, "--no-build", "--timeout", "1", "--without-baseline"], environment: regression)

        // Then it stops, says so, and what it wrote still reproduces the divergence
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("\nstopped at the time bound (1 s, --timeout): this is the smallest session found so far, not the smallest there is\n"), "\(outcome.stdout)")
        let diff = try await CLI.run(["diff", small, "--no-build"], environment: regression)
        #expect(diff.status == 1)
    }
}
