import Foundation
import StoreKitCore
import StoreKitReplay

/// Where the replay host comes from: `--host`, else `REPLAY_HOST`, else a `.replay.json` in the working
/// directory or a parent (`{"host": "<command>", "build": "<command that builds it>"}`, paths relative to it).
///
/// The build step is `--build`, else `REPLAY_BUILD`, else (for a host from `.replay.json`) the file's `build`. A host
/// named by `--host` or `REPLAY_HOST` has no build step unless `--build` or `REPLAY_BUILD` gives one.
package struct HostCommand {
    /// The shell command that starts the host.
    package var command: String
    /// The directory to run it in (and its build step).
    package var directory: String
    /// The shell command that brings the host up to date, run before every replay.
    package var build: String?
    /// Where the command was found, for messages.
    package var origin: String
    /// Where the build command was found, for messages.
    package var buildOrigin: String?

    /// Finds the host from `--host` (`host`), `--build` (`build`), the environment and `.replay.json`.
    /// - Throws: ``CLIError`` when none names a host, or `.replay.json` is malformed.
    static func locate(host: String?, build: String?, context: CommandContext) throws(CLIError) -> HostCommand {
        guard let found = try find(host: host, build: build, context: context) else {
            throw CLIError(.host,
"no replay host: pass '--host <command>', set REPLAY_HOST, or add a .replay.json with {\"host\": \"<command>\"} "
                + "(see docs/replay-host-protocol.md)")
        }
        return found
    }

    /// ``locate(host:build:context:)``, with `nil` when nothing names a host (a command that can do without one).
    /// - Throws: ``CLIError`` when `.replay.json` is malformed.
    static func find(host: String?, build: String?, context: CommandContext) throws(CLIError) -> HostCommand? {
        var buildOverride: (command: String, origin: String)?
        if let option = build {
            buildOverride = (option, "--build")
        } else if let variable = context.environment["REPLAY_BUILD"], !variable.isEmpty {
            buildOverride = (variable, "REPLAY_BUILD")
        }
        if let option = host {
            return HostCommand(
                command: option, directory: context.currentDirectory, build: buildOverride?.command, origin: "--host",
                buildOrigin: buildOverride?.origin)
        }
        if let variable = context.environment["REPLAY_HOST"], !variable.isEmpty {
            return HostCommand(
                command: variable, directory: context.currentDirectory, build: buildOverride?.command,
                origin: "REPLAY_HOST", buildOrigin: buildOverride?.origin)
        }
        var directory = URL(fileURLWithPath: context.currentDirectory)
        while true {
            let file = directory.appendingPathComponent(".replay.json")
            if let data = FileManager.default.contents(atPath: file.path) {
                var host = try fromConfiguration(data, file: file.path, directory: directory.path)
                if let buildOverride {
                    host.build = buildOverride.command
                    host.buildOrigin = buildOverride.origin
                }
                return host
            }
            let parent = directory.deletingLastPathComponent()
            if parent.path == directory.path { break }
            directory = parent
        }
        return nil
    }

    private static func fromConfiguration(_ data: Data, file: String, directory: String) throws(CLIError) -> HostCommand {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: Array(data))
        } catch {
            throw CLIError(.input, "\(file): not valid JSON: \(error)")
        }
        guard case .string(let command)? = json["host"], !command.isEmpty else {
            throw CLIError(.input, "\(file): field 'host' must be a command string, such as \".build/debug/my-replay-host\"")
        }
        var build: String?
        switch json["build"] {
        case nil, .null?:
            build = nil
        case .string(let text)? where !text.isEmpty:
            build = text
        default:
            throw CLIError(.input, "\(file): field 'build' must be a command string, such as \"swift build --product my-replay-host\"")
        }
        return HostCommand(
            command: command, directory: directory, build: build, origin: file, buildOrigin: build.map { _ in file })
    }

    /// Brings the host up to date (runs its build step unless `skipBuild`, or skips it when nothing it reads changed
    /// since it last succeeded) and says what it is.
    /// - Throws: ``CLIError`` when the build step fails, with the compiler's error lines.
    func bringUpToDate(skipBuild: Bool, terminal: Terminal) throws(CLIError) -> HostIdentity {
        guard let build, !skipBuild else { return HostIdentity.of(self, build: nil) }
        let outcome = try HostBuild(command: build, directory: directory, origin: buildOrigin ?? origin).bringUpToDate(
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
