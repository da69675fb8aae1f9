import Foundation
import Testing

/// `replay-cli report` and `diff --report`, end to end through the samples' replay host.
@Suite struct ReportCommandTests {
    /// A fresh folder under /tmp, with no `.replay.json` in it or its parents.
    private func temporaryFolder() throws -> URL {
        let folder = URL(fileURLWithPath: "/tmp/skr-report-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The data the page embeds for its script.
    private func embeddedData(_ page: URL) throws -> [String: Any] {
        let html = try String(contentsOf: page, encoding: .utf8)
        let start = try #require(html.range(of: #"<script type="application/json" id="report-data">"#)).upperBound
        let end = try #require(html.range(of: "</script>", range: start..<html.endIndex)).lowerBound
        return try #require(try JSONSerialization.jsonObject(with: Data(html[start..<end].utf8)) as? [String: Any])
    }

    private func size(_ page: URL) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: page.path)[.size] as? Int)
    }

    @Test func writesThePageWithTheDivergenceAndExitsOne() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("report.html")

        // Given the samples' host with a todo reducer that no longer toggles
        // When report writes the page of todos-basic
        let outcome = try await CLI.run(
            ["report", CLI.session("todos-basic.jsonl"), "-o", page.path, "--no-build"],
            environment: ["SAMPLE_HOST_REGRESSION": "todos-toggle"])

        // Then it exits 1 as diff does, says what it wrote, and the page marks step 5 with its change
        #expect(outcome.status == 1)
        #expect(outcome.stderr == "")
        let firstLine = outcome.stdout.split(separator: "\n").first.map(String.init)
        #expect(firstLine == "wrote \(page.path): 40 actions (diverged), \(try size(page)) bytes")
        let data = try embeddedData(page)
        #expect((data["steps"] as? [[String: Any]])?.map { $0["s"] as? Int } == Array(1...40))
        let replay = try #require(data["replay"] as? [String: Any])
        let divergence = try #require((replay["divergences"] as? [[String: Any]])?.first)
        #expect(divergence["step"] as? Int == 5)
        #expect(
            (divergence["changes"] as? [[String: Any]])?.map { $0["path"] as? String }
                == ["todos[id: 0BB980A5-75A8-4661-BEC0-8AA83B63F1EE].isComplete"])
        #expect(data["note"] is NSNull)
    }

    @Test func withoutAHostShowsTheRecordingAloneAndSaysSo() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }

        // Given a folder with no .replay.json and no REPLAY_HOST
        // When report writes a page there
        let outcome = try await CLI.run(
            ["report", CLI.session("counter-basic.jsonl"), "-o", "page.html"], directory: folder)

        // Then it exits 0, says on stderr that the session was not replayed, and the page says so too
        let page = folder.appendingPathComponent("page.html")
        let reason =
            "not replayed: no replay host (pass --host, set REPLAY_HOST or add a .replay.json); the recording alone, no divergence marked"
        #expect(outcome.status == 0)
        #expect(outcome.stderr == "\(CLI.session("counter-basic.jsonl")): \(reason)\n")
        #expect(outcome.stdout == "wrote page.html: \(try (embeddedData(page)["steps"] as? [Any])?.count ?? -1) actions (not replayed), \(try size(page)) bytes\n")
        let data = try embeddedData(page)
        #expect(data["note"] as? String == reason)
        #expect(data["replay"] is NSNull)
    }

    @Test func countsTheActionsAGapKeptBesideTheActionLines() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }

        // Given the counter sample with its actions 2 and 3 kept in a gap without their states
        let lines = try String(contentsOfFile: CLI.session("counter-basic.jsonl"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        let kept = lines[2...3].map { line in
            line.replacingOccurrences(of: #","kind":"action""#, with: "")
                .replacingOccurrences(of: #","state":\{"count":\d,"step":1\}"#, with: "", options: .regularExpression)
        }
        let gap = #"{"actions":["# + kept.joined(separator: ",") + #"],"count":2,"from":2,"kind":"gap","reason":"bufferFull","to":3}"#
        let session = folder.appendingPathComponent("kept.jsonl")
        try ([lines[0], lines[1], gap] + lines[4...]).joined(separator: "\n").appending("\n")
            .write(to: session, atomically: true, encoding: .utf8)

        // When report writes its page without a host
        let outcome = try await CLI.run(["report", session.path, "-o", "page.html"], directory: folder)

        // Then what it wrote counts the action lines and the kept actions apart, as diff's first line does
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let page = folder.appendingPathComponent("page.html")
        #expect(
            outcome.stdout
                == "wrote page.html: 38 actions and 2 kept without their states (not replayed), \(try size(page)) bytes\n")
        #expect((try embeddedData(page)["session"] as? [String: Any])?["kept"] as? Int == 2)
    }

    @Test func diffWritesTheSamePageBesideItsOwnOutput() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("diff.html")
        let regression = ["SAMPLE_HOST_REGRESSION": "todos-toggle"]

        // When diff runs with and without --report
        let plain = try await CLI.run(["diff", CLI.session("todos-basic.jsonl"), "--no-build"], environment: regression)
        let reporting = try await CLI.run(
            ["diff", CLI.session("todos-basic.jsonl"), "--report", page.path, "--no-build"], environment: regression)

        // Then its output and exit status are the same (but for the host's identity line, which says whether the
        // working tree had uncommitted changes when each ran), the page's line is on stderr, and the page marks step 5
        func withoutIdentity(_ text: String) -> [Substring] {
            text.split(separator: "\n").filter { !$0.hasPrefix("replayed through ") }
        }
        #expect(reporting.status == 1)
        #expect(withoutIdentity(reporting.stdout) == withoutIdentity(plain.stdout))
        #expect(reporting.stdout.split(separator: "\n").last?.hasPrefix("replayed through ") == true)
        #expect(reporting.stderr == "wrote \(page.path): 40 actions (diverged), \(try size(page)) bytes\n")
        let replay = try #require(try embeddedData(page)["replay"] as? [String: Any])
        #expect((replay["divergences"] as? [[String: Any]])?.first?["step"] as? Int == 5)
    }

    @Test func diffRefusesAReportForTwoStates() async throws {
        let outcome = try await CLI.run(["diff", "--states", "a.json", "b.json", "--report", "x.html"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.hasPrefix("Error: '--report' writes the page of one session replayed through its host"))
    }
}
