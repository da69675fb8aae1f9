import Foundation
import StoreKitReplay
import StoreKitSystem

/// The replay host as another revision of its repository has it, for comparing two versions of the code: the same
/// host and build commands, run in a git worktree of that revision kept under the host's folder's `.build`
/// (`.build/replay-baselines/<commit>`), made the first time and reused after, so that a later build of it is
/// incremental (``HostBuild`` skips one whose inputs are unchanged).
///
/// A host command that names its executable by an absolute path in the current checkout runs the worktree's
/// counterpart instead; one outside the repository is refused, since it would be the same program at every revision.
struct BaselineHost {
    /// The revision as the user gave it (`origin/main`, `HEAD~3`, or a commit).
    var revision: String
    /// The commit it names, in full.
    var commit: String
    /// The commit's subject line.
    var subject: String
    /// The host, in the worktree.
    var host: HostCommand
    /// The worktree's folder.
    var worktree: String

    /// The folder under the host's folder that holds the worktrees.
    static let folder = ".build/replay-baselines"

    /// The commit's first seven hex digits, as messages name it.
    var shortCommit: String { String(commit.prefix(7)) }

    /// `1a2b3c4 "Subject"`, as messages name the baseline.
    var title: String { "\(shortCommit) \"\(subject.escapingControls())\"" }

    /// The git repository that holds `current`'s folder, with the paths a baseline needs.
    struct Repository {
        /// Git, run in the repository's top folder.
        var git: Git
        /// The top folder of its working tree.
        var root: String
        /// The host's folder relative to `root` (empty when it is the root).
        var hostFolder: String

        /// The repository of `current`'s folder.
        /// - Throws: ``CLIError`` when the folder is not in a git repository.
        init(of current: HostCommand) throws(CLIError) {
            let directory = URL(fileURLWithPath: current.directory).resolvingSymlinksInPath().path
            let top = try Git(directory: directory).run(
                ["rev-parse", "--show-toplevel"],
                doing: "compare with another revision: the replay host's folder \(directory) must be in a git repository")
            root = URL(fileURLWithPath: top).resolvingSymlinksInPath().path
            git = Git(directory: root)
            hostFolder = directory == root ? "" : String(directory.dropFirst(root.count + 1))
        }

        /// The full commit that `revision` names.
        /// - Throws: ``CLIError`` when it names none.
        func commit(_ revision: String) throws(CLIError) -> String {
            guard let commit = git.output(["rev-parse", "--verify", "--quiet", "--end-of-options", "\(revision)^{commit}"]) else {
                throw CLIError(.usage, "'\(revision.escapingControls())' names no commit in the git repository \(root)")
            }
            return commit
        }

        /// The subject line of `commit`.
        func subject(of commit: String) throws(CLIError) -> String {
            try git.run(["log", "-1", "--format=%s", commit], doing: "read the subject of commit \(commit)")
        }
    }

    /// Makes (or reuses) the worktree of `revision` named `worktree` (the commit when `nil`) and returns the host in it,
    /// not yet built.
    /// - Throws: ``CLIError`` when the host's folder is not in a git repository, the revision names no commit, the
    ///   host's executable lies outside the repository, or git cannot make the worktree.
    static func prepare(
        revision: String, current: HostCommand, worktree: String? = nil, terminal: Terminal
    ) throws(CLIError) -> BaselineHost {
        let repository = try Repository(of: current)
        let commit = try repository.commit(revision)
        let subject = try repository.subject(of: commit)
        let folder = URL(fileURLWithPath: current.directory).appendingPathComponent(Self.folder)
            .appendingPathComponent(worktree ?? commit).path
        try whileLocking(folder, terminal) { () throws(CLIError) in
            terminal.progress("checking out \(String(commit.prefix(7))) in \(folder)...")
            defer { terminal.endProgress() }
            try checkOut(commit, at: folder, repository: repository)
        }
        let directory = repository.hostFolder.isEmpty ? folder : "\(folder)/\(repository.hostFolder)"
        var host = current
        host.directory = directory
        host.command = try command(current.command, movedFrom: repository.root, to: folder)
        return BaselineHost(revision: revision, commit: commit, subject: subject, host: host, worktree: folder)
    }

    /// Brings the baseline's host up to date (its build step, skipped when nothing it reads changed) and says what
    /// it is.
    /// - Throws: ``CLIError`` when the build step fails.
    func bringUpToDate(_ terminal: Terminal) throws(CLIError) -> HostIdentity {
        try Self.whileLocking(worktree, terminal) { () throws(CLIError) in
            try host.bringUpToDate(skipBuild: false, terminal: terminal, describedAs: "the replay host of \(shortCommit)")
        }
    }

    /// Runs `body` holding the lock of the worktree at `folder` (`<folder>.lock`), so that two commands never check
    /// out or build in the same worktree at once; waits, saying so, while another holds it.
    private static func whileLocking<Value>(
        _ folder: String, _ terminal: Terminal, _ body: () throws(CLIError) -> Value
    ) throws(CLIError) -> Value {
        let path = folder + ".lock"
        let fd: Int32
        do {
            try FileManager.default.createDirectory(
                atPath: (folder as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            fd = try Syscall.open(path, O_RDWR | O_CREAT | O_CLOEXEC, mode: 0o600)
        } catch {
            throw CLIError(.output, "cannot make the lock \(path) of a baseline's worktree: \(error)")
        }
        defer { try? Syscall.close(fd) }
        do {
            if try !Syscall.tryLockExclusively(fd, subject: path) {
                terminal.progress("waiting for another replay-cli that uses \(folder)...")
                try Syscall.lockExclusively(fd, subject: path)
                terminal.endProgress()
            }
        } catch {
            throw CLIError(.output, "cannot lock \(path): \(error)")
        }
        return try body()
    }

    /// Checks `commit` out at `folder`: a worktree of the repository there already is moved to it (tracked files
    /// as the commit has them; the build's ignored files stay, so the next build is incremental); anything else
    /// there is replaced by a new worktree.
    private static func checkOut(_ commit: String, at folder: String, repository: Repository) throws(CLIError) {
        let existing = Git(directory: folder)
        let isWorktree = FileManager.default.fileExists(atPath: folder)
            && existing.output(["rev-parse", "--show-toplevel"]).map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path }
                == URL(fileURLWithPath: folder).resolvingSymlinksInPath().path
        if isWorktree {
            _ = try existing.run(["checkout", "--quiet", "--force", "--detach", commit], doing: "check out \(commit) in \(folder)")
            return
        }
        if FileManager.default.fileExists(atPath: folder) {
            do {
                try FileManager.default.removeItem(atPath: folder)
            } catch {
                throw CLIError(.output, "cannot replace \(folder), which is not a worktree of \(repository.root): \(error.localizedDescription)")
            }
        }
        _ = repository.git.output(["worktree", "prune"])
        _ = try repository.git.run(
            ["worktree", "add", "--quiet", "--force", "--detach", folder, commit], doing: "make a worktree of \(commit) at \(folder)")
    }

    /// `command` with its executable moved from the checkout at `root` to the one at `folder`, when it names one by
    /// an absolute path there.
    /// - Throws: ``CLIError`` when it names one by an absolute path outside the repository.
    private static func command(_ command: String, movedFrom root: String, to folder: String) throws(CLIError) -> String {
        let words = command.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
        guard let first = words.first, first.hasPrefix("/") else { return command }
        let executable = URL(fileURLWithPath: String(first)).resolvingSymlinksInPath().path
        guard executable.hasPrefix(root + "/") else {
            throw CLIError(
                .usage,
                "the replay host '\(command.escapingControls())' names \(executable), outside the git repository \(root), so it would be the same program at every revision; name it by a path in the repository")
        }
        return ([folder + executable.dropFirst(root.count)] + words.dropFirst().map(String.init)).joined(separator: " ")
    }
}
