import CommandLineOptions
import StoreKitCore
import StoreKitReplay

/// What `--baseline` names: a git revision of the replay host's repository, or `recorded`, the commit the session
/// was recorded from (its header's `app.commit`).
enum BaselineRevision: Equatable {
    /// A revision git resolves: `origin/main`, `HEAD~3`, a tag, a commit.
    case revision(String)
    /// The commit in the session's header.
    case recorded

    /// `--baseline <rev>`, which `diff`, `check` and `minimize` take.
    static let option = Option<String>.string(
        "--baseline", valueName: "<rev>",
        help: "compare with the replay host built from this git revision in a worktree under .build ('recorded': the commit the session was recorded from)")

    /// The word that names the session's own commit.
    static let recordedWord = "recorded"

    /// The revision `text` names.
    init(_ text: String) {
        self = text == Self.recordedWord ? .recorded : .revision(text)
    }

    /// The revision to build for `session`: the one given, or the commit its header names.
    /// - Throws: ``CLIError`` when `recorded` is asked for and the header names no commit, or the session's header
    ///   cannot be read.
    func revision(for session: SessionInput) throws(CLIError) -> String {
        switch self {
        case .revision(let revision):
            return revision
        case .recorded:
            guard let commit = try Self.recordedCommit(of: session) else {
                throw CLIError(
                    .input,
                    "'--baseline recorded' needs the commit the session was recorded from, and its header names none (recorded outside a git checkout, or by an older recorder); name a revision instead, such as '--baseline origin/main'",
                    file: session.displayName)
            }
            return commit
        }
    }

    /// The commit `session`'s header names (`app.commit`); `nil` when it names none.
    /// - Throws: ``CLIError`` when the header cannot be read.
    static func recordedCommit(of session: SessionInput) throws(CLIError) -> String? {
        let commit = try session.header().app.commit
        return commit.isEmpty ? nil : commit
    }
}
