import CommandLineOptions
import Testing

@testable import ReplayDaemon

/// `--on-finish` and its settings on replayd's command line.
@Suite struct DaemonOptionsOnFinishTests {
    private let environment = ["HOME": "/home/me"]

    @Test func onFinishTakesItsSettingsAndTheirDefaults() throws {
        // Given --on-finish alone, and with every setting
        let plain = try #require(try DaemonOptions.parse(["--on-finish", "upload s3://b"], environment: environment))
        let tuned = try #require(
            try DaemonOptions.parse(
                ["--on-finish", "upload", "--on-finish-retries", "0", "--on-finish-backoff", "250s",
                 "--on-finish-timeout", "2m"],
                environment: environment))

        // Then the command is kept as given, with the defaults or the settings
        #expect(plain.onFinish?.command == "upload s3://b")
        #expect(plain.onFinish?.retries == 3)
        #expect(plain.onFinish?.backoff == .seconds(1))
        #expect(plain.onFinish?.timeout == .seconds(600))
        #expect(tuned.onFinish?.retries == 0)
        #expect(tuned.onFinish?.backoff == .seconds(250))
        #expect(tuned.onFinish?.timeout == .seconds(120))
        #expect(try DaemonOptions.parse([], environment: environment)?.onFinish == nil)
    }

    @Test(arguments: [["--on-finish-retries", "2"], ["--on-finish-backoff", "1s"], ["--on-finish-timeout", "1m"]])
    func aSettingWithoutOnFinishIsAUsageError(arguments: [String]) {
        #expect(throws: UsageError("'\(arguments[0])' goes with '--on-finish'", usage: DaemonOptions.command.usage)) {
            try DaemonOptions.parse(arguments, environment: environment)
        }
    }

    @Test func tooManyRetriesAreAUsageError() {
        #expect(throws: UsageError.self) {
            try DaemonOptions.parse(["--on-finish", "x", "--on-finish-retries", "11"], environment: environment)
        }
    }
}
