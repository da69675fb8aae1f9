import Foundation
import StoreKitCore
import StoreKitReplay

/// Where the replay host comes from: `--host`, else `REPLAY_HOST`, else a `.replay.json` in the working
/// directory or a parent (`{"host": "<command>", "build": "<command that builds it>"}`, paths relative to it).
struct HostCommand {
    /// The shell command that starts the host.
    var command: String
    /// The directory to run it in.
    var directory: String
    /// A command that builds the host when its executable is missing.
    var build: String?
    /// Where the command was found, for messages.
    var origin: String

    static func locate(option: String?, context: CommandContext) throws(CLIError) -> HostCommand {
        if let option {
            return HostCommand(command: option, directory: context.currentDirectory, build: nil, origin: "--host")
        }
        if let variable = context.environment["REPLAY_HOST"], !variable.isEmpty {
            return HostCommand(command: variable, directory: context.currentDirectory, build: nil, origin: "REPLAY_HOST")
        }
        var directory = URL(fileURLWithPath: context.currentDirectory)
        while true {
            let file = directory.appendingPathComponent(".replay.json")
            if let data = FileManager.default.contents(atPath: file.path) {
                return try fromConfiguration(data, file: file.path, directory: directory.path)
            }
            let parent = directory.deletingLastPathComponent()
            if parent.path == directory.path { break }
            directory = parent
        }
        throw CLIError(
            "no replay host: pass '--host <command>', set REPLAY_HOST, or add a .replay.json with {\"host\": \"<command>\"} "
                + "(see docs/replay-host-protocol.md)")
    }

    private static func fromConfiguration(_ data: Data, file: String, directory: String) throws(CLIError) -> HostCommand {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: Array(data))
        } catch {
            throw CLIError("\(file): not valid JSON: \(error)")
        }
        guard case .string(let command)? = json["host"], !command.isEmpty else {
            throw CLIError("\(file): field 'host' must be a command string, such as \".build/debug/my-replay-host\"")
        }
        return HostCommand(command: command, directory: directory, build: json["build"]?.stringValue, origin: file)
    }

    /// Builds the host first when its executable is a path that does not exist yet and a build command is known.
    func prepare(_ terminal: Terminal) throws(CLIError) {
        guard let build, let executable = command.split(separator: " ").first, executable.contains("/") else { return }
        let path = executable.hasPrefix("/") ? String(executable) : "\(directory)/\(executable)"
        guard !FileManager.default.isExecutableFile(atPath: path) else { return }
        terminal.err("replay-cli: building the replay host (\(build))...")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", build]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardOutput = FileHandle.standardError
        do {
            try process.run()
        } catch {
            throw CLIError("cannot run the host's build command '\(build)': \(error)")
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CLIError("the host's build command '\(build)' failed with status \(process.terminationStatus)")
        }
    }
}
