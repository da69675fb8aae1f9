import Foundation
import StoreKitCore
import StoreKitReplay

/// Where the replay host comes from: `--host`, else `REPLAY_HOST`, else the `.replay.json` that
/// ``ReplayConfiguration`` finds (`{"host": "<command>", "build": "<command that builds it>"}`, run in its folder).
///
/// The build step is `--build`, else `REPLAY_BUILD`, else (for a host from `.replay.json`) the file's `build`. A host
/// named by `--host` or `REPLAY_HOST` has no build step unless `--build` or `REPLAY_BUILD` gives one.
package struct HostCommand {
    /// Where a command was found: an option, an environment variable or a `.replay.json`.
    package enum Origin: Equatable, CustomStringConvertible {
        /// An option on the command line, such as `--host`.
        case option(String)
        /// An environment variable, such as `REPLAY_HOST`.
        case environment(String)
        /// The `.replay.json` at this path.
        case file(String)

        /// The option's name, the variable's name or the file's path, as messages name it.
        package var description: String {
            switch self {
            case .option(let name), .environment(let name), .file(let name): name
            }
        }
    }

    /// The shell command that starts the host.
    package var command: String
    /// The directory to run it in (and its build step).
    package var directory: String
    /// The shell command that brings the host up to date, run before every replay.
    package var build: String?
    /// Where the command was found.
    package var origin: Origin
    /// Where the build command was found.
    package var buildOrigin: Origin?

    /// Finds the host from `--host` (`host`), `--build` (`build`), the environment and `.replay.json`.
    /// - Throws: ``CLIError`` when none names a host, or `.replay.json` is malformed or not trusted.
    static func locate(host: String?, build: String?, context: CommandContext) throws(CLIError) -> HostCommand {
        guard let found = try find(host: host, build: build, context: context) else {
            throw CLIError(.host,
"no replay host: pass '--host <command>', set REPLAY_HOST, or add a .replay.json with {\"host\": \"<command>\"} "
                + "(see docs/replay-host-protocol.md)")
        }
        return found
    }

    /// ``locate(host:build:context:)``, with `nil` when nothing names a host (a command that can do without one).
    /// - Throws: ``CLIError`` when `.replay.json` is malformed or not trusted.
    static func find(host: String?, build: String?, context: CommandContext) throws(CLIError) -> HostCommand? {
        var buildOverride: (command: String, origin: Origin)?
        if let option = build {
            buildOverride = (option, .option("--build"))
        } else if let variable = context.environment["REPLAY_BUILD"], !variable.isEmpty {
            buildOverride = (variable, .environment("REPLAY_BUILD"))
        }
        if let option = host {
            return HostCommand(
                command: option, directory: context.currentDirectory, build: buildOverride?.command,
                origin: .option("--host"), buildOrigin: buildOverride?.origin)
        }
        if let variable = context.environment["REPLAY_HOST"], !variable.isEmpty {
            return HostCommand(
                command: variable, directory: context.currentDirectory, build: buildOverride?.command,
                origin: .environment("REPLAY_HOST"), buildOrigin: buildOverride?.origin)
        }
        guard let configuration = try ReplayConfiguration.find(context) else { return nil }
        var host = try fromConfiguration(configuration)
        if let buildOverride {
            host.build = buildOverride.command
            host.buildOrigin = buildOverride.origin
        }
        return host
    }

    private static func fromConfiguration(_ configuration: ReplayConfiguration) throws(CLIError) -> HostCommand {
        let file = configuration.file
        guard case .string(let command)? = configuration.json["host"], !command.isEmpty else {
            throw CLIError(.input, "\(file): field 'host' must be a command string, such as \".build/debug/my-replay-host\"")
        }
        var build: String?
        switch configuration.json["build"] {
        case nil, .null?:
            build = nil
        case .string(let text)? where !text.isEmpty:
            build = text
        default:
            throw CLIError(.input, "\(file): field 'build' must be a command string, such as \"swift build --product my-replay-host\"")
        }
        return HostCommand(
            command: command, directory: configuration.directory, build: build, origin: .file(file),
            buildOrigin: build.map { _ in .file(file) })
    }

    /// Brings the host up to date (runs its build step unless `skipBuild`, or skips it when nothing it reads changed
    /// since it last succeeded) and says what it is.
    /// - Parameter describedAs: How the progress line names the host.
    /// - Throws: ``CLIError`` when the build step fails, with the compiler's error lines.
    func bringUpToDate(
        skipBuild: Bool, terminal: Terminal, describedAs name: String = "the replay host"
    ) throws(CLIError) -> HostIdentity {
        guard let build, !skipBuild else { return HostIdentity.of(self, build: nil) }
        let outcome = try HostBuild(command: build, directory: directory, origin: "\(buildOrigin ?? origin)", name: name).bringUpToDate(
            executable: executablePath, environment: ProcessInfo.processInfo.environment, terminal: terminal)
        return HostIdentity.of(self, build: (build, outcome))
    }

    /// The absolute path of the executable the command starts, when it can be found.
    var executablePath: String? {
        guard let first = command.split(separator: " ").first.map(String.init) else { return nil }
        if first.contains("/") {
            let path = first.hasPrefix("/") ? first : "\(directory)/\(first)"
            return URL(fileURLWithPath: path).standardizedFileURL.path
        }
        let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return searchPath.split(separator: ":").map { "\($0)/\(first)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
