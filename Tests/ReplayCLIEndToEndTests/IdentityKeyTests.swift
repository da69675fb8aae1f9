import Foundation
import Testing

/// `.replay.json`'s `"identity"` names the member that identifies the elements of an array (ReSwift's `toDoID`):
/// `diff` through a host, `check` and `diff --states` match those elements by it, and a pattern that names no array
/// in the states compared is a warning. Through a host, the member of an `Identifiable` element's id is found
/// without it.
@Suite struct IdentityKeyTests {
    /// A session of the ReSwift-style todo list (`todo-list` in the samples' host): two todos, a third added at the
    /// end, then the first one done.
    static func toDoSession(in scratch: Scratch) throws -> String {
        func toDo(_ id: String, _ title: String) -> String { #"{"completed":false,"title":"\#(title)","toDoID":"\#(id)"}"# }
        let two = [toDo("t1", "Milk"), toDo("t2", "Eggs")].joined(separator: ",")
        let done = #"{"completed":true,"title":"Milk","toDoID":"t1"}"#
        return try scratch.write(
            "todo-list.jsonl",
            [
                #"{"app":{"build":"1","name":"SampleApp","schemaVersion":"1","version":"1.0"},"format":1,"host":"vm","initialState":{"todos":[\#(two)]},"kind":"session","metadata":{},"pid":1,"sessionId":"00000000-0000-0000-0000-000000000030","startedAt":"2026-11-23T10:00:00.000Z","storeId":"todo-list"}"#,
                #"{"action":{"add":{"title":"Tea","toDoID":"t3"}},"kind":"action","name":"add","origin":"app","seq":1,"state":{"todos":[\#(two),\#(toDo("t3", "Tea"))]},"time":0.001}"#,
                #"{"action":{"toggle":{"toDoID":"t1"}},"kind":"action","name":"toggle","origin":"app","seq":2,"state":{"todos":[\#(done),\#(toDo("t2", "Eggs")),\#(toDo("t3", "Tea"))]},"time":0.002}"#,
                #"{"actions":2,"dropped":0,"kind":"end","reason":"finished","time":0.003}"#,
            ].joined(separator: "\n") + "\n")
    }

    /// `diff` of the session through the samples' host whose todo list inserts first (`todo-insert`).
    private func diffWithWrongInsert(in scratch: Scratch, _ extra: [String] = []) async throws -> CLI.Outcome {
        try await CLI.run(
            ["diff", try Self.toDoSession(in: scratch), "--no-build"] + extra, environment: ["REPLAY_HOST": CLI.sampleHost, "SAMPLE_HOST_REGRESSION": "todo-insert"],
            directory: scratch.url)
    }

    /// The output without the line naming the host build, which differs machine to machine.
    private func withoutHostLine(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("replayed through ") }.joined(separator: "\n")
    }

    @Test func aWrongInsertIsOneMovedTodoWhenReplayJSONNamesToDoID() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }

        // Given a todo list whose reducer now inserts a new todo first, and no identity for its todos: the host
        // finds that ToDo's `id` is `toDoID`
        let before = try await diffWithWrongInsert(in: scratch)
        #expect(before.status == 1, "\(before.stderr)")
        #expect(before.stdout.contains("1 difference: todos[id: t3]  moved from 2 to 0"), "\(before.stdout)")

        // When .replay.json says the todos are identified by toDoID
        try scratch.write(".replay.json", #"{"identity": {"todos": "toDoID"}}"#)
        let after = try await diffWithWrongInsert(in: scratch)

        // Then the divergence is one todo that moved
        #expect(after.status == 1, "\(after.stderr)")
        #expect(after.stderr == "")
        #expect(
            withoutHostLine(after.stdout) == """
                \(scratch.file("todo-list.jsonl")): store "todo-list", 2 actions, recorded by SampleApp 1.0 (build 1) on 2026-11-23
                diverged at step 1 of 2
                  action  add(title: "Tea", toDoID: "t3")    (from the app, 0.001 s in)

                  state after step 1 (- recorded, + replayed)
                    {
                      "todos": [
                        (moved from 2 to 0) {
                          "completed": false,
                          "title": "Tea",
                          "toDoID": "t3"
                        },
                        ... (2 unchanged)
                      ]
                    }
                  1 difference: todos[id: t3]  moved from 2 to 0

                """)
        let check = try await CLI.run(
            ["check", scratch.file("todo-list.jsonl"), "--no-build"],
            environment: ["REPLAY_HOST": CLI.sampleHost, "SAMPLE_HOST_REGRESSION": "todo-insert"], directory: scratch.url)
        #expect(check.status == 1, "\(check.stderr)")
        #expect(check.stdout.contains("todos[id: t3]  moved from 2 to 0"), "\(check.stdout)")
    }

    @Test func aPatternNamingNoArrayInTheComparedStatesIsAWarning() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write(".replay.json", #"{"identity": {"todoz": "toDoID"}}"#)

        let outcome = try await diffWithWrongInsert(in: scratch)

        #expect(outcome.status == 1)
        #expect(outcome.stdout.contains("1 difference: todos[id: t3]  moved from 2 to 0"), "\(outcome.stdout)")
        #expect(
            outcome.stderr
                == "warning: \(file): identity 'todoz' names no array in the states compared; no element was matched by 'toDoID' there\n")
    }

    @Test func twoStateFilesAreDiffedByTheKeyToo() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write(".replay.json", #"{"identity": {"todos": "toDoID"}}"#)
        let old = try scratch.write("old.json", #"{"todos": [{"toDoID": "a", "title": "Milk"}, {"toDoID": "b", "title": "Eggs"}]}"#)
        let new = try scratch.write("new.json", #"{"todos": [{"toDoID": "c", "title": "Tea"}, {"toDoID": "a", "title": "Milk"}, {"toDoID": "b", "title": "Eggs"}]}"#)

        let outcome = try await CLI.run(["diff", "--states", old, new], directory: scratch.url)

        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(
            outcome.stdout == """
                1 difference: todos[id: c]  (absent) -> {"title":"Tea","toDoID":"c"}
                  {
                    "todos": [
                +     {
                +       "title": "Tea",
                +       "toDoID": "c"
                +     },
                      ... (2 unchanged)
                    ]
                  }

                """)
    }

    @Test func twoSessionsAreDiffedByTheKeyToo() async throws {
        // Given the todo session, and the same with the third todo inserted first
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write(".replay.json", #"{"identity": {"todos": "toDoID"}}"#)
        let recorded = try Self.toDoSession(in: scratch)
        let text = try String(contentsOfFile: recorded, encoding: .utf8)
        let insertedFirst = try scratch.write(
            "inserted-first.jsonl",
            text.replacingOccurrences(
                of: #"{"todos":[{"completed":false,"title":"Milk","toDoID":"t1"},{"completed":false,"title":"Eggs","toDoID":"t2"},{"completed":false,"title":"Tea","toDoID":"t3"}]}"#,
                with: #"{"todos":[{"completed":false,"title":"Tea","toDoID":"t3"},{"completed":false,"title":"Milk","toDoID":"t1"},{"completed":false,"title":"Eggs","toDoID":"t2"}]}"#))

        // When the two recordings are compared
        let outcome = try await CLI.run(["diff", recorded, insertedFirst], directory: scratch.url)

        // Then the difference is the one moved todo
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("1 difference: todos[id: t3]  moved from 2 to 0"), "\(outcome.stdout)")
    }

    @Test func aMalformedIdentityIsExitTwoNamingTheFile() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write(".replay.json", #"{"identity": ["todos"]}"#)
        let old = try scratch.write("old.json", "{}")

        let outcome = try await CLI.run(["diff", "--states", old, old], directory: scratch.url)

        #expect(outcome.status == 2)
        #expect(
            outcome.stderr
                == "Error: \(file): field 'identity' must be an object from path patterns to member names, such as {\"todos\": \"toDoID\"}\n")
    }
}
