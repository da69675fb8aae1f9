import Foundation
import Testing

/// A name or path pattern that matches nothing in the session says so and offers the nearest that exist: `log
/// --name` and `log --path` with a note (the listing stands), `history` with an error (exit 2) for a typo and a note
/// otherwise, `--ignore` with a warning (the verdict stands).
@Suite struct PatternHintTests {
    @Test func logWithANameNoActionHasNotesTheNearestNames() async throws {
        // Given the todos session, whose actions include todo.toggleCompleted
        let path = try TodosWithGap.write()
        defer { try? FileManager.default.removeItem(atPath: path) }

        // When log is asked for a mistyped name
        let outcome = try await CLI.run(["log", path, "--name", "todo.toggleComplete"])

        // Then the listing holds the gap and the end alone, and a note on stderr offers the name meant
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stdout == """
                session 00000000-0000-0000-0000-000000000020, store "todos", SampleApp 1.0, started 2026-11-23T10:00:00.000Z
                     - gap: steps 4-5 lost (bufferFull)
                     - end: finished after 0.800 s, 7 actions, 2 dropped

                """)
        #expect(
            outcome.stderr == """
                note: --name 'todo.toggleComplete' matches no action of \(path); did you mean 'todo.toggleCompleted'?

                """)
    }

    @Test func logWithANameFarFromEveryActionSaysHowTheirNamesBegin() async throws {
        let path = try TodosWithGap.write()
        defer { try? FileManager.default.removeItem(atPath: path) }

        let outcome = try await CLI.run(["log", path, "--name", "checkout", "--json"])

        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stderr == """
                note: --name 'checkout' matches no action of \(path); its actions' names begin with 'addTodo', 'setFilter', 'todo'

                """)
    }

    @Test func logWithAPathNoStateHoldsNotesTheNearestPath() async throws {
        let path = try TodosWithGap.write()
        defer { try? FileManager.default.removeItem(atPath: path) }

        let outcome = try await CLI.run(["log", path, "--path", "todos[*].titel"])

        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stderr == """
                note: --path 'todos[*].titel' names no place in any state of \(path); did you mean 'todos[*].title'?

                """)
    }

    @Test func historyOfAPathNoStateHoldsIsTroubleWithTheNearestPath() async throws {
        // Given the todos session
        let path = try TodosWithGap.write()
        defer { try? FileManager.default.removeItem(atPath: path) }

        // When the history of a mistyped path is asked for
        let outcome = try await CLI.run(["history", path, "todos[*].isCompleted"])

        // Then it is an error (exit 2) that offers the path meant, and nothing else is printed
        #expect(outcome.status == 2)
        #expect(outcome.stdout == "")
        #expect(
            outcome.stderr == """
                Error: 'todos[*].isCompleted' names no place in any state of \(path); did you mean 'todos[*].isComplete'?

                """)
    }

    @Test func historyOfAPathNoStateHoldsWithoutANearNameIsListedWithANoteAsItMayBeANilOptional() async throws {
        // Given the todos session, whose todos have no 'dueDate' (a nil optional is absent from the JSON)
        let path = try TodosWithGap.write()
        defer { try? FileManager.default.removeItem(atPath: path) }

        // When its history is asked for
        let outcome = try await CLI.run(["history", path, "todos[0].dueDate"])

        // Then it is listed as never changed (exit 1), after a note naming the nearest places that exist
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(outcome.stdout.hasSuffix("todos[0].dueDate never changed in 5 recorded steps; steps 4-5 were lost in a gap and may hide more\n"))
        #expect(
            outcome.stderr == """
                note: 'todos[0].dueDate' names no place in any state of \(path); the nearest places that exist are 'todos[0].title', 'todos[0].id', 'todos[0].isComplete' (an optional that is nil throughout is absent from the recorded JSON)

                """)
    }

    @Test func historyOfAPathThatExistsButNeverChangedIsStillADifferenceNotTrouble() async throws {
        // Given a session whose flag is in every state and never changes
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = try scratch.write(
            "flag.jsonl",
            [
                #"{"app":{"build":"1","name":"SampleApp","schemaVersion":"1","version":"1.0"},"format":1,"host":"vm","initialState":{"count":0,"flag":true},"kind":"session","metadata":{},"pid":1,"sessionId":"00000000-0000-0000-0000-000000000023","startedAt":"2026-11-23T10:00:00.000Z","storeId":"counter"}"#,
                #"{"action":{"increment":{}},"kind":"action","name":"increment","origin":"app","seq":1,"state":{"count":1,"flag":true},"time":0.1}"#,
            ].joined(separator: "\n") + "\n")

        // When its history is asked for
        let outcome = try await CLI.run(["history", path, "flag"])

        // Then no step changed it: exit 1, as before, without a note
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(outcome.stdout.hasSuffix("flag never changed in 1 recorded step\n"), "\(outcome.stdout)")
        #expect(outcome.stderr == "")
    }

    @Test func diffWithAnIgnoreThatNamesNothingWarnsAndTheVerdictStands() async throws {
        // When a sample session is diffed with a mistyped --ignore
        let session = CLI.session("todos-basic.jsonl")
        let outcome = try await CLI.run(["diff", session, "--no-build", "--ignore", "todos[*].createdAd"])

        // Then the replay matches as it does without it, and a warning offers the path meant
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("match: all 40 replayed states equal the recorded ones"))
        #expect(
            outcome.stderr == """
                warning: --ignore 'todos[*].createdAd' ignores nothing: it names no place in any state or action of \(session); did you mean 'todos[*].createdAt'?

                """)
    }

    @Test func anIgnoreThatNamesAPlaceHasNoWarning() async throws {
        let outcome = try await CLI.run(["diff", CLI.session("todos-basic.jsonl"), "--no-build", "--ignore", "todos[*].createdAt"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr == "")
    }

    @Test func checkWarnsOfAnIgnoreThatNoSessionCheckedHolds() async throws {
        let session = CLI.session("todos-basic.jsonl")
        let outcome = try await CLI.run(["check", session, "--no-build", "--ignore", "todos[*].createdAd"])

        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stderr == """
                warning: --ignore 'todos[*].createdAd' ignores nothing: it names no place in any state or action of \(session); did you mean 'todos[*].createdAt'?

                """)
    }

    @Test func replayWarnsOfAnIgnoreThatNamesNothing() async throws {
        // When a sample session's state is replayed with a mistyped --ignore
        let session = CLI.session("todos-basic.jsonl")
        let outcome = try await CLI.run(["replay", session, "--no-build", "--ignore", "todos[*].createdAd"])

        // Then the state is printed as without it, and a warning before what replayed it offers the path meant
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let stderr = outcome.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(
            stderr.first
                == "warning: --ignore 'todos[*].createdAd' ignores nothing: it names no place in any state or action of \(session); did you mean 'todos[*].createdAt'?")
        #expect(stderr.count == 3 && stderr[1].hasPrefix("replayed through "), "\(outcome.stderr)")
    }

    @Test func reportWarnsOfAnIgnoreThatNamesNothing() async throws {
        // When a sample session's page is written with a mistyped --ignore
        let session = CLI.session("todos-basic.jsonl")
        let page = NSTemporaryDirectory() + "ignore-hint-\(UUID().uuidString).html"
        defer { try? FileManager.default.removeItem(atPath: page) }
        let outcome = try await CLI.run(["report", session, "--no-build", "-o", page, "--ignore", "todos[*].createdAd"])

        // Then the page is written as without it, and a warning offers the path meant
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.hasPrefix("wrote \(page): 40 actions (match), "), "\(outcome.stdout)")
        #expect(
            outcome.stderr == """
                warning: --ignore 'todos[*].createdAd' ignores nothing: it names no place in any state or action of \(session); did you mean 'todos[*].createdAt'?

                """)
    }
}
