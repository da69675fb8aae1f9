import Foundation
import Testing

@Suite struct UsageTests {
    @Test func noSubcommandIsAnErrorWithTheRootHelp() async throws {
        let outcome = try await CLI.run([])
        #expect(outcome.status == 2)
        let help = try String(
            contentsOf: CLI.packageRoot.appendingPathComponent("Tests/ReplayCLIEndToEndTests/Help/root.txt"), encoding: .utf8)
        #expect(outcome.stderr == "Error: missing subcommand\nUsage: replay-cli <subcommand> [<arguments>] [--help]\n\n" + help)
    }

    @Test func aMistypedSubcommandGetsASuggestion() async throws {
        let outcome = try await CLI.run(["dif", "x.jsonl"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr == "Error: unknown subcommand 'dif'\nDid you mean 'diff'?\nUsage: replay-cli <subcommand> [<arguments>] [--help]\n")
    }

    @Test func aMistypedOptionGetsASuggestionAndTheUsage() async throws {
        let outcome = try await CLI.run(["show", "x.jsonl", "--stpe", "3"])
        #expect(outcome.status == 2)
        #expect(
            outcome.stderr
                == "Error: unknown option '--stpe'\nDid you mean '--step'?\nUsage: replay-cli show <session> [--step <n>] [--json]\n")
    }

    @Test func aBadNumberIsNamed() async throws {
        let outcome = try await CLI.run(["show", CLI.session("counter-basic.jsonl"), "--step", "two"])
        #expect(outcome.status == 2)
        #expect(
            outcome.stderr
                == "Error: option '--step' needs a whole number from 0 to \(Int.max), not 'two'\n"
                + "Usage: replay-cli show <session> [--step <n>] [--json]\n")
    }

    @Test func aMissingSessionIsNamedWithTheUsage() async throws {
        let outcome = try await CLI.run(["diff", "--no-build"])
        #expect(outcome.status == 2)
        #expect(
            outcome.stderr
                == "Error: missing '<session>'\nUsage: replay-cli diff <session> [<other-session>] [--all] [--context <n>] "
                + "[--states] [--report <file.html>] [--determinism] [--baseline <rev>] [--ignore <path>] [--no-default-ignore] [--host <command>] [--build <command>] [--no-build] "
                + "[--timeout <seconds>] [--json]\n")
    }
}
