import Foundation
import Testing

/// A host that crashes, hangs, prints garbage or does not know the store is reported as such; the CLI survives.
@Suite struct HostFailureTests {
    /// A host that greets, then runs `body`, in which `step <seq> <name>` shows a step on the progress board.
    private func fakeHost(_ body: String, in scratch: Scratch) throws -> String {
        try scratch.write(
            "host.sh",
            """
            #!/bin/sh
            cat > /dev/null &
            board=$(printf '%s' "$2" | sed 's/.*"progress":"\\([^"]*\\)".*/\\1/')
            step() { printf '0 %s %s\\n' "$1" "$2" > "$board"; }
            echo '{"kind":"hello","protocol":7,"stores":["todos"]}'
            \(body)
            """, executable: true)
    }

    @Test(arguments: [
        ("step 1 addTodo; kill -SEGV $$", "the replay host crashed (signal 11) at step 1 (addTodo)"),
        ("step 2 tag; exit 3", "the replay host exited with status 3 at step 2 (tag)"),
        ("step 1 addTodo; sleep 30", "the replay host hung at step 1 (addTodo): no answer for 1 s"),
        (
            #"step 40 toggle; printf 'ending 4 3 0\n' >> "$board"; sleep 30"#,
            "the replay host hung after step 40 (toggle), ending the 4 effect runs still in flight (3 ended, 0 judged): no answer for 1 s"
        ),
        ("echo 'Fatal error: oops'", "the replay host printed something that is not the replay-host protocol before the first step: 'Fatal error: oops'"),
    ])
    func aFailingHostIsReportedWithItsStep(_ body: String, _ message: String) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let host = try fakeHost(body, in: scratch)
        let outcome = try await CLI.run(["diff", CLI.session("todos-basic.jsonl"), "--host", host, "--timeout", "1"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
    }

    @Test func aTrappingHostShowsTheHeadAndTheTailOfItsStandardError() async throws {
        // Given a host whose reducer traps at step 3: the fatal error and its source location come first, then a
        // 40-line backtrace
        let scratch = try Scratch()
        defer { scratch.remove() }
        let host = try fakeHost(
            """
            step 3 toggleCompleted
            echo 'Fatal error: Index out of range' >&2
            echo 'Todos.swift:78: in Todos.reducer' >&2
            i=1; while [ $i -le 40 ]; do echo "#$i 0x00000000000$i in frame$i" >&2; i=$((i+1)); done
            kill -TRAP $$
            """, in: scratch)

        // When diff replays through it
        let outcome = try await CLI.run(["diff", CLI.session("todos-basic.jsonl"), "--host", host, "--timeout", "5"])

        // Then the report names the step, and shows the first 10 lines and the last 10 with the count left out
        #expect(outcome.status == 2)
        let frames = { (range: ClosedRange<Int>) in range.map { "#\($0) 0x00000000000\($0) in frame\($0)" } }
        let expected = ["Error: the replay host crashed (signal 5) at step 3 (toggleCompleted) without an answer; its stderr said:"]
            + ["Fatal error: Index out of range", "Todos.swift:78: in Todos.reducer"] + frames(1...8)
            + ["... (22 lines omitted)"] + frames(31...40)
        #expect(outcome.stderr == expected.joined(separator: "\n") + "\n")
    }

    @Test func aHostThatDoesNotKnowTheStoreSaysWhichItKnows() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let text = try String(contentsOfFile: CLI.session("counter-basic.jsonl"), encoding: .utf8)
        let session = try scratch.write("other.jsonl", text.replacingOccurrences(of: #""storeId":"counter""#, with: #""storeId":"checkout""#))
        let outcome = try await CLI.run(["diff", session, "--no-build"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("the replay host does not know store 'checkout' (it knows: counter, groceries, rehearsals, scoreboard, todo-list, todos)"), "\(outcome.stderr)")
    }

    @Test func aHostThatCannotStartIsNamed() async throws {
        let outcome = try await CLI.run(["diff", CLI.session("todos-basic.jsonl"), "--host", "/nonexistent/host"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("the replay host exited with status 127 before the first step"), "\(outcome.stderr)")
    }

    @Test func withoutAnyHostConfigurationTheMessageSaysHowToAddOne() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let session = try scratch.copy("counter-basic.jsonl", as: "c.jsonl")
        let outcome = try await CLI.run(["diff", session], directory: scratch.url)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("no replay host: pass '--host <command>'"))
    }
}
