import Foundation
import StoreKitCore
import StoreKitTestFixtures
import Testing

@Suite struct GitCheckoutTests {
    private static let commitA = String(repeating: "a1", count: 20)
    private static let commitB = String(repeating: "b2", count: 20)
    private static let sha256Commit = String(repeating: "c3", count: 32)

    /// A folder tree written from `files` (relative path to contents) under a temporary directory.
    private struct Tree {
        let directory: TemporaryDirectory

        init(_ files: [String: String]) throws {
            directory = try TemporaryDirectory()
            for (path, text) in files {
                let url = URL(fileURLWithPath: directory.file(path))
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: url)
            }
        }

        func commit(from folder: String = "") -> String {
            GitCheckout.commit(containing: folder.isEmpty ? directory.path : directory.file(folder))
        }
    }

    struct Layout: CustomTestStringConvertible, Sendable {
        let name: String
        let files: [String: String]
        /// The folder the lookup starts from, relative to the tree.
        var from = ""
        let expected: String
        var testDescription: String { name }
    }

    static let layouts: [Layout] = [
        Layout(
            name: "a branch in a loose ref, from a folder inside the checkout",
            files: [
                "app/.git/HEAD": "ref: refs/heads/main\n", "app/.git/refs/heads/main": "\(commitA)\n",
                "app/.build/debug/.keep": "",
            ],
            from: "app/.build/debug", expected: commitA),
        Layout(
            name: "a branch in packed-refs, between a comment, other refs and a peeled tag",
            files: [
                "app/.git/HEAD": "ref: refs/heads/feature/x\n",
                "app/.git/packed-refs": """
                    # pack-refs with: peeled fully-peeled sorted 
                    \(commitB) refs/heads/feature/xy
                    \(commitA) refs/heads/feature/x
                    \(commitB) refs/tags/v1
                    ^\(commitB)

                    """,
            ],
            from: "app", expected: commitA),
        Layout(
            name: "a loose ref before the packed one of the same name",
            files: [
                "app/.git/HEAD": "ref: refs/heads/main\n", "app/.git/refs/heads/main": "\(commitA)\n",
                "app/.git/packed-refs": "\(commitB) refs/heads/main\n",
            ],
            from: "app", expected: commitA),
        Layout(
            name: "a detached HEAD", files: ["app/.git/HEAD": "\(commitB)\n"], from: "app", expected: commitB),
        Layout(
            name: "a detached HEAD of a SHA-256 repository", files: ["app/.git/HEAD": "\(sha256Commit)\n"],
            from: "app", expected: sha256Commit),
        Layout(
            name: "a worktree: a .git file, its HEAD in its git directory, its branch in the common one",
            files: [
                "wt/.git": "gitdir: ../main/.git/worktrees/wt\n",
                "main/.git/worktrees/wt/HEAD": "ref: refs/heads/topic\n",
                "main/.git/worktrees/wt/commondir": "../..\n",
                "main/.git/HEAD": "ref: refs/heads/main\n",
                "main/.git/refs/heads/main": "\(commitB)\n",
                "main/.git/refs/heads/topic": "\(commitA)\n",
            ],
            from: "wt", expected: commitA),
        Layout(
            name: "a worktree's own refs stay in its git directory",
            files: [
                "wt/.git": "gitdir: ../main/.git/worktrees/wt\n",
                "main/.git/worktrees/wt/HEAD": "ref: refs/bisect/bad\n",
                "main/.git/worktrees/wt/commondir": "../..\n",
                "main/.git/worktrees/wt/refs/bisect/bad": "\(commitA)\n",
                "main/.git/refs/bisect/bad": "\(commitB)\n",
            ],
            from: "wt", expected: commitA),
        Layout(
            name: "a submodule: a .git file pointing into the parent's modules, without a commondir",
            files: [
                "parent/.git/HEAD": "\(commitB)\n",
                "parent/sub/.git": "gitdir: ../.git/modules/sub\n",
                "parent/.git/modules/sub/HEAD": "ref: refs/heads/main\n",
                "parent/.git/modules/sub/packed-refs": "\(commitA) refs/heads/main\n",
            ],
            from: "parent/sub", expected: commitA),
        Layout(
            name: "a symbolic ref pointing at another",
            files: [
                "app/.git/HEAD": "ref: refs/heads/alias\n", "app/.git/refs/heads/alias": "ref: refs/heads/main\n",
                "app/.git/refs/heads/main": "\(commitA)\n",
            ],
            from: "app", expected: commitA),
        Layout(name: "no .git anywhere up to the root", files: ["app/main.swift": ""], from: "app", expected: ""),
        Layout(name: "no HEAD", files: ["app/.git/config": ""], from: "app", expected: ""),
        Layout(name: "an empty HEAD", files: ["app/.git/HEAD": ""], from: "app", expected: ""),
        Layout(
            name: "a branch with no commit yet", files: ["app/.git/HEAD": "ref: refs/heads/main\n"], from: "app",
            expected: ""),
        Layout(
            name: "a HEAD that is neither a commit nor a ref", files: ["app/.git/HEAD": "main\n"], from: "app",
            expected: ""),
        Layout(
            name: "an upper-case commit", files: ["app/.git/HEAD": commitA.uppercased() + "\n"], from: "app",
            expected: ""),
        Layout(
            name: "a commit one digit short", files: ["app/.git/HEAD": String(commitA.dropLast()) + "\n"],
            from: "app", expected: ""),
        Layout(
            name: "a loose ref that is not a commit",
            files: ["app/.git/HEAD": "ref: refs/heads/main\n", "app/.git/refs/heads/main": "not a commit\n"],
            from: "app", expected: ""),
        Layout(
            name: "a ref outside refs/",
            files: ["app/.git/HEAD": "ref: config\n", "app/.git/config": "\(commitA)\n"], from: "app", expected: ""),
        Layout(
            name: "a ref climbing out of the git directory",
            files: ["app/.git/HEAD": "ref: refs/../../secret\n", "app/secret": "\(commitA)\n"], from: "app",
            expected: ""),
        Layout(
            name: "a ref that points at itself",
            files: ["app/.git/HEAD": "ref: refs/heads/loop\n", "app/.git/refs/heads/loop": "ref: refs/heads/loop\n"],
            from: "app", expected: ""),
        Layout(name: "a .git file without gitdir", files: ["app/.git": "\(commitA)\n"], from: "app", expected: ""),
        Layout(
            name: "a .git file pointing nowhere", files: ["app/.git": "gitdir: /nonexistent/skr-git\n"], from: "app",
            expected: ""),
        Layout(
            name: "a commondir pointing nowhere",
            files: [
                "wt/.git": "gitdir: ../g", "g/HEAD": "ref: refs/heads/main\n", "g/commondir": "../missing\n",
                "g/refs/heads/main": "\(commitA)\n",
            ],
            from: "wt", expected: ""),
    ]

    @Test(arguments: layouts)
    func findsTheCommitHEADNamesOrNothing(_ layout: Layout) throws {
        // Given a checkout laid out by hand
        let tree = try Tree(layout.files)
        defer { tree.directory.remove() }

        // When the commit is looked up from a folder, then it is the one HEAD names, or "" when it cannot be known
        #expect(tree.commit(from: layout.from) == layout.expected)
    }

    @Test func aHEADThatIsAFolderIsNotRead() throws {
        // Given a checkout whose HEAD is a folder (and so no file to read)
        let tree = try Tree(["app/.git/HEAD/\(Self.commitA)": ""])
        defer { tree.directory.remove() }

        // Then the commit is not known
        #expect(tree.commit(from: "app") == "")
    }

    @Test func packedRefsLargerThanTheBoundAreNotRead() throws {
        // Given a branch that only packed-refs names, after 8 MiB of other refs
        let others = String(repeating: "\(Self.commitB) refs/tags/other-tag-of-a-long-name-that-fills-the-file\n", count: 100_000)
        let tree = try Tree([
            "app/.git/HEAD": "ref: refs/heads/main\n", "app/.git/packed-refs": others + "\(Self.commitA) refs/heads/main\n",
        ])
        defer { tree.directory.remove() }
        try #require(others.utf8.count > 8 << 20)

        // Then the file is not read, and the commit is not known
        #expect(tree.commit(from: "app") == "")
    }

    @Test func findsWhatGitItselfSaysInARealRepositoryItsPackedRefsAndAWorktree() throws {
        // Given a real repository with one commit
        let tree = try Tree(["repo/file.txt": "one\n"])
        defer { tree.directory.remove() }
        let repository = tree.directory.file("repo")
        try git(["init", "-q", "-b", "main"], in: repository)
        try git(["add", "file.txt"], in: repository)
        try git(["commit", "-q", "-m", "first"], in: repository)
        let first = try git(["rev-parse", "HEAD"], in: repository)
        try #require(AppInfo.isCommitID(first))

        // Then the lookup finds git's own answer, with the branch loose, then packed, and detached
        #expect(tree.commit(from: "repo") == first)
        try git(["pack-refs", "--all", "--prune"], in: repository)
        #expect(!FileManager.default.fileExists(atPath: repository + "/.git/refs/heads/main"))
        #expect(tree.commit(from: "repo") == first)
        try Data("two\n".utf8).write(to: URL(fileURLWithPath: repository + "/file.txt"))
        try git(["commit", "-q", "-am", "second"], in: repository)
        let second = try git(["rev-parse", "HEAD"], in: repository)
        #expect(second != first)
        #expect(tree.commit(from: "repo") == second)
        try git(["checkout", "-q", "--detach", first], in: repository)
        #expect(tree.commit(from: "repo") == first)

        // And in a worktree on a branch of its own, from a folder inside it
        let worktree = tree.directory.file("wt")
        try git(["worktree", "add", "-q", "-b", "topic", worktree, second], in: repository)
        try FileManager.default.createDirectory(atPath: worktree + "/.build/debug", withIntermediateDirectories: true)
        #expect(tree.commit(from: "wt/.build/debug") == (try git(["rev-parse", "HEAD"], in: worktree)))
        #expect(tree.commit(from: "wt") == second)
    }

    @Test func theRunningExecutablesCommitIsTheOneGitFindsFromItsFolder() throws {
        // Given the folder of this test's executable, inside the package's checkout when it was built in one
        let executable = try #require(Bundle.main.executableURL).resolvingSymlinksInPath()
        let folder = executable.deletingLastPathComponent().path

        // Then the lookup agrees with git run there ("" when git finds no checkout)
        #expect(GitCheckout.commitOfRunningExecutable() == ((try? git(["rev-parse", "HEAD"], in: folder)) ?? ""))
    }
}

/// The trimmed standard output of `git -C directory arguments...`.
/// - Throws: ``GitCommandFailed`` when git exits with a failure.
@discardableResult
func git(_ arguments: [String], in directory: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments =
        ["git", "-C", directory, "-c", "user.name=Test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false"]
        + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw GitCommandFailed(arguments: arguments, directory: directory) }
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

/// `git` exited with a failure.
struct GitCommandFailed: Error, CustomStringConvertible {
    let arguments: [String]
    let directory: String
    var description: String { "git \(arguments.joined(separator: " ")) failed in \(directory)" }
}
