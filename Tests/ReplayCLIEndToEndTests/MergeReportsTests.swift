import Foundation
import Testing

/// `check --shard I/N` in N jobs, then `merge-reports`: the merged JUnit report and summary hold what one unsharded
/// `check` reports; inputs that are not check's, or that overlap, are refused with a clear error.
@Suite struct MergeReportsTests {
    /// Runs `check` on the sample sessions with the todos regression (two sessions diverge), as shard `shard` when
    /// given, writing `<name>.xml` and `<name>.md` in `scratch`.
    private func check(_ name: String, shard: String?, in scratch: Scratch) async throws -> CLI.Outcome {
        try await CLI.run(
            ["check", "samples/sessions", "--no-build", "--junit", scratch.file(name + ".xml"), "--summary", scratch.file(name + ".md")]
                + (shard.map { ["--shard", $0] } ?? []),
            environment: ["SAMPLE_HOST_REGRESSION": "todos-toggle"])
    }

    /// The `<testcase …>` elements of a JUnit file, each as its text, sorted.
    private func testCases(_ path: String) throws -> [String] {
        let xml = try String(contentsOfFile: path, encoding: .utf8)
        return xml.components(separatedBy: "    <testcase ").dropFirst().map { "<testcase " + $0.components(separatedBy: "</testcase>")[0] }
            .sorted()
    }

    @Test func theMergedReportsOfThreeShardsHoldWhatOneCheckReports() async throws {
        // Given the sample sessions checked whole, and in three shards
        let scratch = try Scratch()
        defer { scratch.remove() }
        let whole = try await check("whole", shard: nil, in: scratch)
        #expect(whole.status == 1, "\(whole.stderr)")
        var shardSizes: [Int] = []
        for index in 1...3 {
            let shard = try await check("shard-\(index)", shard: "\(index)/3", in: scratch)
            #expect(shard.status <= 1, "\(shard.stderr)")
            shardSizes.append(try testCases(scratch.file("shard-\(index).xml")).count)
        }
        #expect(shardSizes.reduce(0, +) == 7, "\(shardSizes)")

        // When their reports are merged
        let inputs = (1...3).flatMap { [scratch.file("shard-\($0).xml"), scratch.file("shard-\($0).md")] }
        let merged = try await CLI.run(
            ["merge-reports", "--junit", scratch.file("merged.xml"), "--summary", scratch.file("merged.md")] + inputs)

        // Then it says what it wrote and exits 1 for the diverged session
        #expect(merged.status == 1, "\(merged.stderr)")
        #expect(merged.stderr == "")
        #expect(merged.stdout == """
            \(scratch.file("merged.xml")): 7 sessions from 3 reports, 2 failed, 0 errors
            \(scratch.file("merged.md")): 7 sessions: 2 diverged, 5 match, from 3 summaries

            """)
        // And the merged JUnit report has every case of the whole one, in one suite per shard
        #expect(try testCases(scratch.file("merged.xml")) == testCases(scratch.file("whole.xml")))
        let mergedXML = try String(contentsOfFile: scratch.file("merged.xml"), encoding: .utf8)
        #expect(mergedXML.contains(#"<testsuites name="replay-cli check" tests="7" failures="2" errors="0">"#))
        #expect(mergedXML.components(separatedBy: "<testsuite name=").count == 4)
        // And the merged summary is the whole one with its rows in shard order
        let wholeSummary = try String(contentsOfFile: scratch.file("whole.md"), encoding: .utf8).split(separator: "\n")
        let mergedSummary = try String(contentsOfFile: scratch.file("merged.md"), encoding: .utf8).split(separator: "\n")
        #expect(Array(mergedSummary.prefix(5)) == Array(wholeSummary.prefix(5)))
        #expect(mergedSummary.dropFirst(5).sorted() == wholeSummary.dropFirst(5).sorted())
        #expect(mergedSummary.first == "### replay-cli check: failed")
    }

    @Test func aMergedSummaryIsOneTableWithItsCounts() async throws {
        // Given two shards' summaries, the second appended to twice by one job (two documents)
        let scratch = try Scratch()
        defer { scratch.remove() }
        let header = "| | Session | Verdict | Step | Path | Artifacts |\n| --- | --- | --- | --- | --- | --- |\n"
        try scratch.write("a.md", "### replay-cli check: failed\n\n2 sessions: 1 diverged, 1 match\n\n" + header
            + "| ✅ | `s/a.jsonl` | match |  |  |  |\n| ❌ | `s/b\\|c.jsonl` | diverged | 4 `toggle` | `todos[0].done` |  |\n")
        try scratch.write("b.md", "### replay-cli check: passed\n\n1 session: 1 match\n\n" + header
            + "| ✅ | `s/d.jsonl` | match |  |  |  |\n"
            + "### replay-cli check: passed\n\n0 sessions\n\n" + header)

        // When they are merged
        let merged = try await CLI.run(["merge-reports", "--summary", scratch.file("m.md"), scratch.file("a.md"), scratch.file("b.md")])

        // Then the merged summary is their rows under one heading and counts line
        #expect(merged.status == 1, "\(merged.stderr)")
        #expect(try String(contentsOfFile: scratch.file("m.md"), encoding: .utf8) == """
            ### replay-cli check: failed

            3 sessions: 1 diverged, 2 match

            \(header)\
            | ✅ | `s/a.jsonl` | match |  |  |  |
            | ❌ | `s/b\\|c.jsonl` | diverged | 4 `toggle` | `todos[0].done` |  |
            | ✅ | `s/d.jsonl` | match |  |  |  |

            """)
    }

    @Test func mismatchedOrMalformedInputsAreRefusedNamingWhy() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let header = "| | Session | Verdict | Step | Path | Artifacts |\n| --- | --- | --- | --- | --- | --- |\n"
        let summary = "### replay-cli check: passed\n\n1 session: 1 match\n\n" + header + "| ✅ | `s/a.jsonl` | match |  |  |  |\n"
        try scratch.write("a.md", summary)
        try scratch.write("again.md", summary)
        try scratch.write("miscounted.md", summary.replacingOccurrences(of: "1 session: 1 match", with: "2 sessions: 2 match"))
        try scratch.write("notes.txt", "hello\n")
        try scratch.write("bad.xml", "<testsuites><testsuite name=\"x\" tests=\"1\" failures=\"0\" errors=\"0\"></testsuite></testsuites>\n")
        try scratch.write("broken.xml", "<testsuites>\n<testsuite>\n")
        try scratch.write("empty.xml", "<testsuites name=\"replay-cli check\" tests=\"0\" failures=\"0\" errors=\"0\">\n</testsuites>\n")
        let cases: [(arguments: [String], error: String)] = [
            (["--summary", "m.md", "a.md", "again.md"], "Error: session `s/a.jsonl` is in both 'a.md' and 'again.md'; were two shards the same?\n"),
            (["--summary", "m.md", "miscounted.md"],
             "Error: miscounted.md:3: not a summary written by replay-cli check: its counts line says '2 sessions: 2 match' but its table holds '1 session: 1 match'\n"),
            (["--summary", "m.md", "notes.txt"], "Error: 'notes.txt' is neither a JUnit report nor a summary written by replay-cli check\n"),
            (["--junit", "m.xml", "bad.xml"],
             "Error: 'bad.xml' is not a JUnit report written by replay-cli check: line 1: suite 'x' says tests=1 failures=0 errors=0 but holds 0 cases, 0 failed, 0 errors\n"),
            (["--summary", "m.md", "empty.xml"], "Error: 'empty.xml' is a JUnit report: give '--junit <file>' to merge it\nUsage: replay-cli merge-reports <report> ... [--junit <file>] [--summary <file>]\n"),
        ]
        for (arguments, error) in cases {
            let outcome = try await CLI.run(["merge-reports"] + arguments, directory: scratch.url)
            #expect(outcome.status == 2, "\(arguments)")
            #expect(outcome.stderr == error, "\(arguments)")
            #expect(!FileManager.default.fileExists(atPath: scratch.file("m.md")))
        }
        let broken = try await CLI.run(["merge-reports", "--junit", "m.xml", "broken.xml"], directory: scratch.url)
        #expect(broken.status == 2)
        #expect(broken.stderr.hasPrefix("Error: 'broken.xml' is not well-formed XML (line "), "\(broken.stderr)")
    }
}
