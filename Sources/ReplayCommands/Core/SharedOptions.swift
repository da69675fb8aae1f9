import CommandLineOptions

/// Options several commands take, each declared once: the replay host's (which host, its build step, how long to
/// wait for it) and the output's (`--json`).
package enum SharedOptions {
    /// `--json`.
    package static let json = Flag("--json", help: "print one JSON document instead of text")
    /// `--host <command>`.
    package static let host = Option<String>.string(
        "--host", valueName: "<command>", defaultDescription: "$REPLAY_HOST, else .replay.json here or in a parent up to the repository root",
        help: "the replay host to run")
    /// `--build <command>`.
    package static let build = Option<String>.string(
        "--build", valueName: "<command>", defaultDescription: "$REPLAY_BUILD, else .replay.json's 'build'",
        help: "build the host with this before replaying")
    /// `--no-build`.
    package static let noBuild = Flag("--no-build", help: "replay through the host as it is, without its build step")
    /// `--timeout <seconds>`.
    package static let timeout = Option<Int>.integer(
        "--timeout", valueName: "<seconds>", in: 1...86_400, default: 30,
        help: "give up on a host that stays silent this long")

    /// `--ignore <path>`, repeatable.
    package static let ignore = Option<String>.string(
        "--ignore", valueName: "<path>",
        help: "leave the values at this path out of comparisons: 'todos[*].id' ('*' any member, '[*]' any element); repeatable, added to .replay.json's \"ignore\"")
    /// `--no-default-ignore`.
    package static let noDefaultIgnore = Flag("--no-default-ignore", help: "leave out the paths .replay.json's \"ignore\" lists")
    /// The options that choose what a comparison ignores; ``IgnoredPaths/resolve(_:context:)`` reads them.
    package static let ignoring = [ignore.declaration, noDefaultIgnore.declaration]

    /// The options of every command that replays, then `--json`; ``HostOptions/resolve(_:context:)`` reads them.
    package static let replaying = [host.declaration, build.declaration, noBuild.declaration, timeout.declaration, json.declaration]
}
