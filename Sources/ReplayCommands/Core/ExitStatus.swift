/// How `replay-cli` ends, as swift-argument-parser's `ExitCode` says it: every command returns one, and
/// ``ReplayCLI/main(_:environment:)`` hands its ``code`` to the executable.
///
/// The three statuses are the command line's contract (its help says "0 same or ok, 1 differences found, 2
/// trouble"): a verdict is ``ok`` or ``different``; every ``CLIError`` is ``trouble``.
package struct ExitStatus: Equatable, Comparable, Sendable {
    /// The number the process exits with.
    package let code: Int32

    /// Same, or done: the sessions match, the file was written, some step changed the path asked about.
    package static let ok = ExitStatus(code: 0)
    /// Differences found: a session diverged, drifted or is nondeterministic, two inputs differ, or (for `history`)
    /// no step changed the path.
    package static let different = ExitStatus(code: 1)
    /// Trouble: bad usage, unreadable input, a failing host, output that cannot be written.
    package static let trouble = ExitStatus(code: 2)
    /// What a command writing to a reader that went away ends with, as a tool killed by SIGPIPE would in a shell.
    package static let brokenPipe = ExitStatus(code: 141)

    /// The worse of two statuses is the greater: trouble over differences over ok.
    package static func < (lhs: ExitStatus, rhs: ExitStatus) -> Bool { lhs.code < rhs.code }
}
