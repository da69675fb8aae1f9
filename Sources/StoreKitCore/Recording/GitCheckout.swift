import Foundation
import StoreKitSystem

/// The commit `HEAD` names in a git checkout, read from git's own files without running git.
///
/// The checkout is the first folder, from a starting folder upwards, that holds `.git`: a folder, or a file
/// `gitdir: <path>` (a worktree or a submodule; a worktree's shared refs live in the folder its `commondir` names).
/// `HEAD` holds a commit id (detached) or `ref: <name>`, which resolves through the ref's loose file or
/// `packed-refs`. Every file is read once, at most a bounded number of bytes, and only when it is a regular file.
/// Anything missing, too large or malformed gives an empty string ("not known"); nothing here throws or crashes.
package enum GitCheckout {
    /// The most bytes read from `.git`, `HEAD`, `commondir` or a loose ref.
    private static var smallFileBytes: Int { 4096 }
    /// The most bytes read from `packed-refs`; a larger one is not read.
    private static var packedRefsBytes: Int { 8 << 20 }
    /// How many `ref:` links are followed before giving up, as git does for a symbolic ref pointing at another.
    private static var maximumRefLinks: Int { 5 }

    /// The commit of the checkout the running executable lives in, or an empty string when not known.
    package static func commitOfRunningExecutable() -> String {
        guard let executable = runningExecutablePath() else { return "" }
        let folder = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
        return commit(containing: folder.path)
    }

    /// The commit of the checkout `folder` lies in (the first folder from it upwards holding `.git`), or an empty
    /// string when not known.
    package static func commit(containing folder: String) -> String {
        guard let checkout = checkoutFolder(from: folder), let gitDirectory = gitDirectory(of: checkout) else {
            return ""
        }
        let commonDirectory = smallFile(gitDirectory + "/commondir").map { resolved($0, from: gitDirectory) }
            ?? gitDirectory
        guard let head = smallFile(gitDirectory + "/HEAD") else { return "" }
        return commit(named: head, gitDirectory: gitDirectory, commonDirectory: commonDirectory, links: 0)
    }

    /// The path of the running executable: on Linux what `/proc/self/exe` links to, elsewhere the main bundle's
    /// executable, else the program's path as run.
    private static func runningExecutablePath() -> String? {
        #if os(Linux)
        return try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        #else
        if let path = Bundle.main.executablePath { return path }
        return CommandLine.arguments.first.flatMap { $0.contains("/") ? $0 : nil }
        #endif
    }

    /// The first folder from `folder` upwards that holds `.git`.
    private static func checkoutFolder(from folder: String) -> String? {
        var current = URL(fileURLWithPath: folder).standardizedFileURL
        while true {
            if (try? Syscall.status(current.path + "/.git")) != nil { return current.path }
            let parent = current.deletingLastPathComponent()
            if parent.path == current.path { return nil }
            current = parent
        }
    }

    /// The git directory of the checkout `folder`: its `.git` folder, or where its `.git` file points.
    private static func gitDirectory(of folder: String) -> String? {
        let dotGit = folder + "/.git"
        guard let status = try? Syscall.status(dotGit) else { return nil }
        if status.isDirectory { return dotGit }
        guard let link = smallFile(dotGit), link.hasPrefix("gitdir: ") else { return nil }
        return resolved(String(link.dropFirst("gitdir: ".count)), from: folder)
    }

    /// The commit that `content` (of `HEAD` or a loose ref) names, following a `ref:` link.
    private static func commit(
        named content: String, gitDirectory: String, commonDirectory: String, links: Int
    ) -> String {
        if AppInfo.isCommitID(content) { return content }
        guard content.hasPrefix("ref: "), links < maximumRefLinks else { return "" }
        let name = String(content.dropFirst("ref: ".count))
        guard isSafeRefName(name) else { return "" }
        // A worktree keeps its own few refs in its git directory, and shares the branches in the common one.
        let perWorktree = ["refs/bisect/", "refs/worktree/", "refs/rewritten/"].contains { name.hasPrefix($0) }
        if let loose = smallFile((perWorktree ? gitDirectory : commonDirectory) + "/" + name) {
            return commit(named: loose, gitDirectory: gitDirectory, commonDirectory: commonDirectory, links: links + 1)
        }
        return packedCommit(of: name, in: commonDirectory)
    }

    /// The commit `packed-refs` in `directory` gives the ref `name`, or an empty string.
    private static func packedCommit(of name: String, in directory: String) -> String {
        guard let packed = contents(of: directory + "/packed-refs", limit: packedRefsBytes) else { return "" }
        // Lines are `<commit> <ref>`, with `#` comments and `^<commit>` lines (a tag's peeled commit) between them.
        for line in packed.split(separator: "\n") {
            let fields = line.split(separator: " ", maxSplits: 1)
            if fields.count == 2, fields[1] == name, AppInfo.isCommitID(fields[0]) { return String(fields[0]) }
        }
        return ""
    }

    /// Whether `name` is a ref under `refs/` that stays inside the git directory as a path.
    private static func isSafeRefName(_ name: String) -> Bool {
        name.hasPrefix("refs/") && !name.split(separator: "/").contains("..") && !name.contains("\0")
    }

    /// `path` as given when absolute, else from the folder `base`.
    private static func resolved(_ path: String, from base: String) -> String {
        path.hasPrefix("/") ? path : base + "/" + path
    }

    /// The text of a small file, without its trailing newline, or `nil` when it cannot be read or is too large.
    private static func smallFile(_ path: String) -> String? {
        contents(of: path, limit: smallFileBytes).map { $0.hasSuffix("\n") ? String($0.dropLast()) : $0 }
    }

    /// The text of the regular file `path` when it holds at most `limit` bytes, else `nil`.
    private static func contents(of path: String, limit: Int) -> String? {
        guard let fd = try? Syscall.openRegularFile(path) else { return nil }
        defer { try? Syscall.close(fd, subject: path) }
        var bytes: [UInt8] = []
        while bytes.count <= limit {
            let count = min(64 << 10, limit + 1 - bytes.count)
            guard let chunk = try? Syscall.read(fd, at: bytes.count, count: count) else { return nil }
            if chunk.isEmpty { return String(decoding: bytes, as: UTF8.self) }
            bytes += chunk
        }
        return nil
    }
}
