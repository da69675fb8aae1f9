import CommandLineOptions
import StoreKitCore
import StoreKitReplay

/// What the host options (``SharedOptions/replaying``) resolve to: the host to run, whether to build it first and
/// how long to wait for it. Every replaying command resolves them here, so each rule is written once.
package struct HostOptions {
    /// The host's command, directory and build step.
    package var host: HostCommand
    /// `--no-build`: run the host as it is.
    package var skipBuild: Bool
    /// Seconds a silent host is given before it is stopped.
    package var timeout: Double

    /// Resolves the host options of `parsed`, with the environment and `.replay.json` for what they leave out.
    /// - Throws: ``CLIError`` when no host is named anywhere, or `.replay.json` is malformed.
    package static func resolve(_ parsed: ParsedCommandLine, context: CommandContext) throws(CLIError) -> HostOptions {
        HostOptions(
            host: try HostCommand.locate(
                host: parsed.value(of: SharedOptions.host), build: parsed.value(of: SharedOptions.build), context: context),
            skipBuild: parsed.isSet(SharedOptions.noBuild),
            timeout: Double(parsed.value(ofDefaulted: SharedOptions.timeout)))
    }

    /// ``resolve(_:context:)``, with `nil` when nothing names a host (`--host`, `REPLAY_HOST`, `.replay.json`).
    /// - Throws: ``CLIError`` when `.replay.json` is malformed.
    package static func resolveIfNamed(_ parsed: ParsedCommandLine, context: CommandContext) throws(CLIError) -> HostOptions? {
        guard
            let host = try HostCommand.find(
                host: parsed.value(of: SharedOptions.host), build: parsed.value(of: SharedOptions.build), context: context)
        else { return nil }
        return HostOptions(
            host: host, skipBuild: parsed.isSet(SharedOptions.noBuild), timeout: Double(parsed.value(ofDefaulted: SharedOptions.timeout)))
    }

    /// Runs the host's build step (unless `--no-build`) and says what the host is.
    func bringUpToDate(_ terminal: Terminal) throws(CLIError) -> HostIdentity {
        try host.bringUpToDate(skipBuild: skipBuild, terminal: terminal)
    }

    /// The client that replays sessions through the host.
    var client: ReplayHostClient { ReplayHostClient(host: host, timeout: timeout) }
}
