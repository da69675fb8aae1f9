import Foundation

/// A temporary git repository whose commits stand for versions of an app's code, for `--baseline`, `minimize` and
/// `bisect`: its `.replay.json` names a host script that runs the samples' replay host with the regression the commit's
/// `regression` file names (`SAMPLE_HOST_REGRESSION`), and a build step that fails in a commit holding a `broken`
/// file. So each commit replays as the samples' code would with that change, and some do not build, without
/// compiling Swift in a worktree per commit.
struct VersionedRepository {
    /// One commit: the regression it switches on (`""` for none), whether it builds, its subject.
    struct Commit {
        var subject: String
        var regression = ""
        var builds = true
    }

    /// The temporary folder holding the repository (removed by ``remove()``).
    let folder: URL
    /// The repository's working tree.
    let root: URL
    /// The commits' hashes, oldest first.
    let commits: [String]

    /// Makes the repository with `commits`, oldest first, under a short `/tmp` path, on a thread of its own: its
    /// dozens of `git` runs would otherwise hold a thread of the pool the whole suite shares.
    static func make(_ commits: [Commit]) async throws -> VersionedRepository {
        try await onOwnThread { try makeBlocking(commits) }
    }

    private static func makeBlocking(_ commits: [Commit]) throws -> VersionedRepository {
        let folder = URL(fileURLWithPath: "/tmp/rv-\(UUID().uuidString.prefix(8))")
        let root = folder.appendingPathComponent("app")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        func write(_ name: String, _ text: String) throws {
            try Data(text.utf8).write(to: root.appendingPathComponent(name))
        }
        try git(["init", "-q", "-b", "main"], in: root)
        try write(".gitignore", ".build/\n")
        try write(".replay.json", #"{"host": "sh host.sh", "build": "sh build.sh"}"# + "\n")
        try write("host.sh", "exec env SAMPLE_HOST_REGRESSION=\"$(cat regression)\" '\(CLI.sampleHost)' \"$@\"\n")
        try write("build.sh", "if [ -e broken ]; then echo 'error: this commit does not build' >&2; exit 1; fi\n")
        var hashes: [String] = []
        for commit in commits {
            try write("regression", commit.regression)
            let broken = root.appendingPathComponent("broken")
            if commit.builds {
                try? FileManager.default.removeItem(at: broken)
            } else {
                try write("broken", "")
            }
            try git(["add", "-A"], in: root)
            try git(["commit", "-q", "--allow-empty", "-m", commit.subject], in: root)
            hashes.append(try git(["rev-parse", "HEAD"], in: root))
        }
        return VersionedRepository(folder: folder, root: root, commits: hashes)
    }

    /// Removes the repository and everything made in it (worktrees included).
    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// A git command that failed.
    struct GitFailed: Error {
        var arguments: [String]
        var status: Int32
    }

    /// Runs git in `directory` with a fixed identity; its output without the last line break.
    @discardableResult
    static func git(_ arguments: [String], in directory: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", directory.path, "-c", "user.name=Test", "-c", "user.email=test@example.com"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw GitFailed(arguments: arguments, status: process.terminationStatus)
        }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
    }
}
