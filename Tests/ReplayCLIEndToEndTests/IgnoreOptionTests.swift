import Foundation
import Testing

/// `--ignore`, `.replay.json`'s `"ignore"` and `--no-default-ignore`, in every mode of `diff` and in `check`.
@Suite struct IgnoreOptionTests {
    /// todos-basic.jsonl with every UUID replaced by another, the same one each time: a second run of the journey.
    static func secondRun(in scratch: Scratch) throws -> String {
        let text = try String(contentsOfFile: CLI.session("todos-basic.jsonl"), encoding: .utf8)
        let uuid = try NSRegularExpression(pattern: "[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}")
        var replaced: [String: String] = [:]
        var result = ""
        var last = text.startIndex
        for match in uuid.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            guard let range = Range(match.range, in: text) else { continue }
            let old = String(text[range])
            let new = replaced[old] ?? String(format: "00000000-0000-4000-8000-%012d", replaced.count + 1)
            replaced[old] = new
            result += text[last..<range.lowerBound] + new
            last = range.upperBound
        }
        return try scratch.write("second-run.jsonl", result + text[last...])
    }

    /// todos-basic.jsonl with every recorded state's `createdAt` moved a second on: the actions are the same, so
    /// replay makes the old dates again.
    static func shiftedDates(in scratch: Scratch) throws -> String {
        let lines = try String(contentsOfFile: CLI.session("todos-basic.jsonl"), encoding: .utf8)
            .split(separator: "\n").map { line -> String in
                guard let state = line.range(of: #","state":"#) else { return String(line) }
                return String(line[..<state.lowerBound])
                    + line[state.lowerBound...].replacingOccurrences(of: #""createdAt":1795"#, with: #""createdAt":1796"#)
            }
        return try scratch.write("shifted.jsonl", lines.joined(separator: "\n") + "\n")
    }

    @Test func twoRunsDifferingOnlyInIdsAreTheSameOnceTheIdsAreIgnored() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try scratch.copy("todos-basic.jsonl", as: "first-run.jsonl")
        _ = try Self.secondRun(in: scratch)
        let (first, second) = ("first-run.jsonl", "second-run.jsonl")

        // Without --ignore the first step already differs, in its random id
        let plain = try await CLI.run(["diff", first, second], directory: scratch.url)
        #expect(plain.status == 1)
        #expect(plain.stdout.contains("step 1: action"))

        // With the ids ignored, in the states and in the actions that carry them, the runs are the same
        let ignoring = try await CLI.run(
            ["diff", first, second, "--ignore", "todos[*].id", "--ignore", "*.id"], directory: scratch.url)
        #expect(ignoring.status == 0, "\(ignoring.stderr)")
        #expect(
            ignoring.stdout == """
                first-run.jsonl and second-run.jsonl: the same 40 steps
                ignoring 'todos[*].id', '*.id':
                  '*.id' covered differing values at 33 steps, first addTodo.id at step 1
                  'todos[*].id' covered differing values at 40 steps, first todos[0].id at step 1

                """)

        // And --json says the same as data
        let json = try await CLI.run(
            ["diff", first, second, "--ignore", "todos[*].id", "--ignore", "*.id", "--json"], directory: scratch.url)
        let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(document?["same"] as? Bool == true)
        #expect(document?["ignoring"] as? [String] == ["todos[*].id", "*.id"])
        let ignored = document?["ignored"] as? [[String: Any]]
        #expect(ignored?.map { $0["steps"] as? Int } == [33, 40])
    }

    @Test func replayJSONsIgnoreListIsTheDefaultAndCanBeLeftOut() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try scratch.write(".replay.json", #"{"host": "unused", "ignore": ["todos[*].id", "*.id"]}"#)
        let first = try scratch.copy("todos-basic.jsonl", as: "first-run.jsonl")
        let second = try Self.secondRun(in: scratch)

        let withDefaults = try await CLI.run(["diff", first, second], directory: scratch.url)
        #expect(withDefaults.status == 0, "\(withDefaults.stdout)\(withDefaults.stderr)")
        #expect(withDefaults.stdout.contains("ignoring 'todos[*].id', '*.id':"))

        let without = try await CLI.run(["diff", first, second, "--no-default-ignore"], directory: scratch.url)
        #expect(without.status == 1)
    }

    @Test func aBadPatternIsExitTwoNamingItAndThePosition() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let first = try scratch.copy("todos-basic.jsonl", as: "first-run.jsonl")

        let option = try await CLI.run(["diff", first, first, "--ignore", "todos[*.id"], directory: scratch.url)
        #expect(option.status == 2)
        #expect(option.stderr == "Error: --ignore: bad path pattern 'todos[*.id' at character 6: '[' is never closed with ']'\n")

        let file = try scratch.write(".replay.json", #"{"host": "unused", "ignore": ["todos[*].id", "to*dos"]}"#)
        let configured = try await CLI.run(["diff", first, first], directory: scratch.url)
        #expect(configured.status == 2)
        #expect(
            configured.stderr
                == "Error: \(file): ignore[1]: bad path pattern 'to*dos' at character 1: '*' stands for a whole member name, not part of one\n")
    }

    @Test func twoStateFilesIgnoreThePathsToo() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let old = try scratch.write("old.json", #"{"todos": [{"id": "A", "done": false}, {"id": "B", "done": false}]}"#)
        let new = try scratch.write("new.json", #"{"todos": [{"id": "X", "done": false}, {"id": "Y", "done": true}]}"#)

        let outcome = try await CLI.run(["diff", "--states", old, new, "--ignore", "todos[*].id"], directory: scratch.url)
        #expect(outcome.status == 1)
        #expect(
            outcome.stdout == """
                1 difference: todos[id: B].done  false -> true
                  {
                    "todos": [
                      ... (1 unchanged)
                      {
                -       "done": false,
                +       "done": true,
                        "id": "B"
                      }
                    ]
                  }
                ignoring 'todos[*].id':
                  'todos[*].id' covered 2 differing values: todos[0].id, todos[1].id

                """)
    }

    @Test func replayThroughTheHostIgnoresThePathsAndSaysWhatItIgnored() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let shifted = try Self.shiftedDates(in: scratch)

        // Recorded dates that replay does not make again diverge
        let plain = try await CLI.run(["diff", shifted, "--no-build"])
        #expect(plain.status == 1)
        #expect(plain.stdout.contains("diverged at step 1 of 40"))

        // Ignored, the session matches, and the report says what it ignored
        let ignoring = try await CLI.run(["diff", shifted, "--ignore", "todos[*].createdAt", "--no-build"])
        #expect(ignoring.status == 0, "\(ignoring.stdout)\(ignoring.stderr)")
        #expect(ignoring.stdout.contains("""
            match: all 40 replayed states equal the recorded ones
            ignoring 'todos[*].createdAt':
              'todos[*].createdAt' covered differing values at 40 steps, first todos[id: 0BB980A5-75A8-4661-BEC0-8AA83B63F1EE].createdAt at step 1
            """))

        let check = try await CLI.run(["check", shifted, "--ignore", "todos[*].createdAt", "--no-build"])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("; ignored 'todos[*].createdAt' at 40 steps"))

        let json = try await CLI.run(["diff", shifted, "--ignore", "todos[*].createdAt", "--json", "--no-build"])
        let report = (try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["report"] as? [String: Any]
        #expect(report?["verdict"] as? String == "match")
        #expect(report?["ignoring"] as? [String] == ["todos[*].createdAt"])
    }
}
