import CommandLineOptions
import Foundation
import ReplayCommands
import Testing

/// The host options resolve in one place: `--host`/`--build` over the environment, the timeout's default.
@Suite struct HostOptionsTests {
    static let command = CommandDescription(name: "replay-cli test", abstract: "a replaying command", options: SharedOptions.replaying)

    private func resolve(_ arguments: [String], environment: [String: String] = [:]) throws -> HostOptions {
        let parsed = try ParsedCommandLine(arguments, for: Self.command)
        let context = CommandContext(
            terminal: Terminal(useColor: false, showProgress: false), environment: environment, currentDirectory: "/tmp")
        return try HostOptions.resolve(parsed, context: context)
    }

    @Test func theOptionsNameTheHostItsBuildAndTheTimeout() throws {
        let options = try resolve(["--host", "./host", "--build", "make host", "--timeout", "5", "--no-build"])
        #expect(options.host.command == "./host")
        #expect(options.host.origin == .option("--host"))
        #expect(options.host.build == "make host")
        #expect(options.host.buildOrigin == .option("--build"))
        #expect(options.timeout == 5)
        #expect(options.skipBuild)
    }

    @Test func withoutOptionsTheEnvironmentNamesTheHostAndTheTimeoutIsThirtySeconds() throws {
        let options = try resolve([], environment: ["REPLAY_HOST": "env-host", "REPLAY_BUILD": "env-build"])
        #expect(options.host.command == "env-host")
        #expect(options.host.origin == .environment("REPLAY_HOST"))
        #expect(options.host.build == "env-build")
        #expect(options.host.buildOrigin == .environment("REPLAY_BUILD"))
        #expect(options.timeout == 30)
        #expect(!options.skipBuild)
    }

    @Test func theOptionsWinOverTheEnvironment() throws {
        let options = try resolve(
            ["--host", "cli-host", "--build", "cli-build"], environment: ["REPLAY_HOST": "env-host", "REPLAY_BUILD": "env-build"])
        #expect(options.host.command == "cli-host")
        #expect(options.host.build == "cli-build")
    }

    @Test func aTimeoutOutOfRangeIsAUsageErrorNamingTheRange() {
        #expect(throws: UsageError("option '--timeout' needs a whole number from 1 to 86400, not '0'", usage: Self.command.usage)) {
            try ParsedCommandLine(["--timeout", "0"], for: Self.command)
        }
    }
}
