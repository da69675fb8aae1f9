import Foundation
import Testing

/// With `--json`, a failure is one JSON document on standard output (nothing on standard error), exit 2.
@Suite struct JSONErrorTests {
    @Test func aBrokenSessionLineIsReportedAsDataWithItsFileAndLine() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let session = try scratch.write("broken.jsonl", "{\"x\":1}\n")
        let outcome = try await CLI.run(["log", session, "--json"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr == "")
        #expect(
            outcome.stdout == """
                {
                  "error": "session",
                  "exitStatus": 2,
                  "file": "\(session)",
                  "line": 1,
                  "message": "field 'kind' is missing (expected a string)"
                }

                """)
    }

    @Test func theSameFailureWithoutJSONIsTextOnStandardError() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let session = try scratch.write("broken.jsonl", "{\"x\":1}\n")
        let outcome = try await CLI.run(["log", session])
        #expect(outcome.status == 2)
        #expect(outcome.stdout == "")
        #expect(outcome.stderr == "Error: \(session):1: field 'kind' is missing (expected a string)\n")
    }

    @Test func aUsageErrorIsReportedAsDataWithTheUsage() async throws {
        let outcome = try await CLI.run(["show", "x.jsonl", "--stpe", "3", "--json"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr == "")
        #expect(
            outcome.stdout == """
                {
                  "error": "usage",
                  "exitStatus": 2,
                  "message": "unknown option '--stpe'\\nDid you mean '--step'?",
                  "usage": "replay-cli show <session> [--step <n>] [--json]"
                }

                """)
    }

    @Test func aMissingHostIsAHostError() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let outcome = try await CLI.run(
            ["diff", CLI.session("counter-basic.jsonl"), "--no-build", "--json"], directory: scratch.url)
        #expect(outcome.status == 2)
        let document = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        #expect(document?["error"] as? String == "host")
        #expect((document?["message"] as? String)?.hasPrefix("no replay host: pass '--host <command>'") == true)
    }
}
