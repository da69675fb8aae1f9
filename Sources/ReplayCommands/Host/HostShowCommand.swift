import CommandLineOptions
import StoreKitCore
import StoreKitJSON
import StoreKitReplay

/// `replay-cli host --show`: which host command and which build step a replaying command would run, in which folder,
/// and where each was found (an option, an environment variable, a `.replay.json`), running neither.
///
/// Exit 0 when a host is named; exit 2 when none is, or `.replay.json` is malformed or not trusted.
enum HostShowCommand: Command {
    /// `--show`.
    static let show = Flag(
        "--show", help: "(required) print the host and build commands and where each was found, running neither")

    static let command = CommandDescription(
        name: "replay-cli host",
        abstract: "Show which replay host and build step the replaying commands would run, and where each was found, without running them.",
        options: [show.declaration] + [SharedOptions.host, SharedOptions.build].map(\.declaration)
            + [SharedOptions.noBuild.declaration, SharedOptions.json.declaration],
        discussion: """
            diff, check, replay, report, update and minimize run the build step, then the host, each through /bin/sh \
            in the folder shown. --no-build skips the build step but still runs the host; the build step is also \
            skipped when nothing it reads changed since it last succeeded. A .replay.json runs as you, like a \
            repository's build script: see docs/replay-cli.md#trusting-replayjson. Exit status: 0 a host is named, 2 none is or \
            .replay.json is not trusted.
            """)

    static func run(_ parsed: ParsedCommandLine, _ context: CommandContext) throws(CLIError) -> ExitStatus {
        guard parsed.isSet(show) else {
            throw CLIError("'host' needs '--show' (print what would run, running nothing)", usage: command.usage)
        }
        let host = try HostCommand.locate(
            host: parsed.value(of: SharedOptions.host), build: parsed.value(of: SharedOptions.build), context: context)
        let skipBuild = parsed.isSet(SharedOptions.noBuild)
        if parsed.isSet(SharedOptions.json) {
            context.terminal.out(document(host, skipBuild: skipBuild).prettyString())
        } else {
            context.terminal.out(text(host, skipBuild: skipBuild))
        }
        return .ok
    }

    /// The text: each command quoted as JSON (so that no character in it is hidden), then where it was found.
    private static func text(_ host: HostCommand, skipBuild: Bool) -> String {
        var lines = ["host   \(quoted(host.command))", "       from \(phrase(host.origin))"]
        if let build = host.build, let origin = host.buildOrigin {
            lines.append("build  \(quoted(build))\(skipBuild ? "  (not run: --no-build; the host still runs)" : "")")
            lines.append("       from \(phrase(origin))")
        } else {
            lines.append("build  none: the host runs as it is")
        }
        lines.append("in     \(quoted(host.directory))")
        lines.append("Nothing was run.")
        return lines.joined(separator: "\n")
    }

    private static func document(_ host: HostCommand, skipBuild: Bool) -> JSONValue {
        var build = JSONValue.null
        if let command = host.build, let origin = host.buildOrigin {
            build = .object(["command": .string(command), "origin": value(of: origin), "skipped": .bool(skipBuild)])
        }
        return .object([
            "host": .object(["command": .string(host.command), "origin": value(of: host.origin)]),
            "build": build,
            "directory": .string(host.directory),
        ])
    }

    private static func quoted(_ text: String) -> String { JSONValue.string(text).canonicalString }

    private static func phrase(_ origin: HostCommand.Origin) -> String {
        switch origin {
        case .option(let name): "the \(name) option"
        case .environment(let name): "the environment variable \(name)"
        case .file(let path): quoted(path)
        }
    }

    private static func value(of origin: HostCommand.Origin) -> JSONValue {
        switch origin {
        case .option(let name): .object(["option": .string(name)])
        case .environment(let name): .object(["environment": .string(name)])
        case .file(let path): .object(["file": .string(path)])
        }
    }
}
