import Foundation
import Testing

@Suite struct UsageTests {
    @Test(arguments: ["diff", "check", "replay", "show", "log", "stats", "sessions", "verify", "update"])
    func everyCommandHasHelp(_ command: String) async throws {
        let outcome = try await CLI.run([command, "--help"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.hasPrefix("OVERVIEW: "))
        #expect(outcome.stdout.contains("\nUSAGE: replay-cli \(command)"))
        #expect(outcome.stdout.contains("\nOPTIONS:\n"))
    }

    @Test func rootHelpListsTheSubcommands() async throws {
        let outcome = try await CLI.run(["--help"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("SUBCOMMANDS:\n  diff"))
    }

    @Test func aMistypedSubcommandGetsASuggestion() async throws {
        let outcome = try await CLI.run(["dif", "x.jsonl"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr == "Error: unknown subcommand 'dif'\nDid you mean 'diff'?\nUsage: replay-cli <subcommand> [<arguments>] [--help]\n")
    }

    @Test func aMistypedOptionGetsASuggestionAndTheUsage() async throws {
        let outcome = try await CLI.run(["show", "x.jsonl", "--stpe", "3"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.hasPrefix("Error: unknown option '--stpe'\nDid you mean '--step'?\nUsage: replay-cli show"))
    }

    @Test func aBadNumberIsNamed() async throws {
        let outcome = try await CLI.run(["show", CLI.session("counter-basic.jsonl"), "--step", "two"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.hasPrefix("Error: option '--step' needs a whole number"))
    }
}
