import Foundation
import Testing

/// Every command's `--help`, and the root's, compared whole with a golden file in `Help/`.
///
/// To re-record the golden files after changing a help text on purpose, run the tests with `REPLAY_RECORD_HELP=1`
/// and review the diff of `Tests/ReplayCLIEndToEndTests/Help`.
@Suite struct HelpGoldenTests {
    static let commands = [
        "root", "diff", "check", "replay", "show", "log", "history", "stats", "sessions", "verify", "update", "export-test",
        "export", "report", "minimize", "host", "bisect", "pull", "merge-reports", "mcp",
    ]

    @Test(arguments: commands)
    func helpMatchesItsGoldenFile(_ command: String) async throws {
        let outcome = try await CLI.run(command == "root" ? ["--help"] : [command, "--help"])
        #expect(outcome.status == 0)
        #expect(outcome.stderr == "")
        let golden = CLI.packageRoot.appendingPathComponent("Tests/ReplayCLIEndToEndTests/Help/\(command).txt")
        if ProcessInfo.processInfo.environment["REPLAY_RECORD_HELP"] == "1" {
            try Data(outcome.stdout.utf8).write(to: golden)
            return
        }
        let expected = try String(contentsOf: golden, encoding: .utf8)
        #expect(outcome.stdout == expected, "replay-cli \(command) --help differs from Help/\(command).txt")
    }
}
