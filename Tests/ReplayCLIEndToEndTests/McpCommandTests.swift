import Foundation
import Testing

/// `replay-cli mcp` as a client meets it: messages in on stdin, one response line each out on stdout, in order;
/// a line over the limit and a malformed one are answered with errors and the server goes on; it ends with stdin.
@Suite struct McpCommandTests {
    /// The response lines, each decoded.
    private func responses(_ stdout: String) throws -> [[String: Any]] {
        try stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test func answersEachRequestInOrderAndSurvivesAHugeLineAndBadJSON() async throws {
        // Given a session of messages: a handshake, a 2 MiB line, a line that is not JSON, and a diff
        let huge = #"{"jsonrpc":"2.0","id":"huge","method":"ping","params":{"pad":""# + String(repeating: "x", count: 2 << 20) + #""}}"#
        let lines = [
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}"#,
            #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            huge,
            "not json",
            #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"diff","arguments":{"session":"samples/sessions/counter-basic.jsonl"}}}"#,
            #"{"jsonrpc":"2.0","id":3,"method":"ping"}"#,
        ]

        // When the server reads them and stdin ends
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.write("input.jsonl", lines.joined(separator: "\n") + "\n")
        let outcome = try await CLI.run(["mcp"], stdinFile: input, timeout: 300)

        // Then it answers the four requests and the two bad lines, in order, and exits 0
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let answers = try responses(outcome.stdout)
        #expect(answers.count == 5)
        #expect(((answers[0]["result"] as? [String: Any])?["protocolVersion"] as? String) == "2025-06-18")
        #expect(answers[1]["id"] is NSNull)
        #expect((answers[1]["error"] as? [String: Any])?["code"] as? Int == -32600)
        #expect(
            (answers[1]["error"] as? [String: Any])?["message"] as? String
                == "a message of \(huge.utf8.count) bytes, over the limit of 1048576; it was skipped")
        #expect((answers[2]["error"] as? [String: Any])?["code"] as? Int == -32700)
        #expect(answers[3]["id"] as? Int == 2)
        let diff = try #require(answers[3]["result"] as? [String: Any])
        #expect(diff["isError"] as? Bool == false)
        let structured = try #require(diff["structuredContent"] as? [String: Any])
        // The same document `diff --json` prints
        let direct = try await CLI.run(["diff", "samples/sessions/counter-basic.jsonl", "--json"])
        let text = try #require(((diff["content"] as? [[String: Any]])?.first)?["text"] as? String)
        #expect(text == direct.stdout)
        #expect(NSDictionary(dictionary: structured).isEqual(to: try #require(try JSONSerialization.jsonObject(with: Data(direct.stdout.utf8)) as? [String: Any])))
        #expect(answers[4]["id"] as? Int == 3)
    }
}
