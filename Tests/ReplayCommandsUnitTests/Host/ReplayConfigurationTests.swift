import Foundation
import ReplayCommands
import Testing

/// `.replay.json` is looked up as git looks up a repository: up to the repository root only (the working directory
/// alone outside one), and a file another user owns or may write, or one in a folder they may write, is refused.
@Suite struct ReplayConfigurationTests {
    /// A folder tree under /tmp for one test, removed with ``remove()``.
    private struct Tree {
        let root = "/tmp/skr-conf-\(UUID().uuidString.prefix(8))"

        init() throws { try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true) }

        /// Makes the folder `path` (relative to the root) and returns its absolute path.
        @discardableResult
        func folder(_ path: String, mode: Int = 0o755) throws -> String {
            let folder = "\(root)/\(path)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: folder)
            return folder
        }

        /// Writes a `.replay.json` naming a host into the folder `path` and returns the file's path.
        @discardableResult
        func configuration(in path: String, mode: Int = 0o644) throws -> String {
            let file = path.isEmpty ? "\(root)/.replay.json" : "\(root)/\(path)/.replay.json"
            try Data(#"{"host": "true"}"#.utf8).write(to: URL(fileURLWithPath: file))
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file)
            return file
        }

        /// Makes `path` a repository root: it holds a `.git` folder.
        func repository(_ path: String) throws { try folder("\(path)/.git") }

        func find(from path: String, environment: [String: String] = [:]) throws -> ReplayConfiguration? {
            let context = CommandContext(
                terminal: Terminal(useColor: false, showProgress: false), environment: environment,
                currentDirectory: path.isEmpty ? root : "\(root)/\(path)")
            return try ReplayConfiguration.find(context)
        }

        func remove() { try? FileManager.default.removeItem(atPath: root) }
    }

    /// The refusal's whole text for `file`, with `reason` what it says of the file or folder.
    private func refusal(_ file: String, _ reason: String) -> String {
        "Error: \(file): not trusted: \(reason), and a .replay.json names commands that run as you. Make the file and "
            + "its folder yours and writable only by you (chown, chmod go-w), or set REPLAY_TRUST_CONFIG=\(file) to "
            + "trust this one file (see docs/replay-cli.md#trusting-replayjson)"
    }

    private func error(_ body: () throws -> ReplayConfiguration?) -> String? {
        do {
            _ = try body()
            return nil
        } catch let error as CLIError {
            return error.text
        } catch {
            return "\(error)"
        }
    }

    @Test func insideARepositoryTheNearestFileUpToTheRootIsUsed() throws {
        let tree = try Tree()
        defer { tree.remove() }
        // Given a repository whose root holds the file, and a folder two levels down
        try tree.repository("repo")
        let file = try tree.configuration(in: "repo")
        try tree.folder("repo/a/b")

        // When the lookup starts in the folder, then it finds the root's file, which runs its commands in the root
        let found = try tree.find(from: "repo/a/b")
        #expect(found?.file == file)
        #expect(found?.directory == "\(tree.root)/repo")
    }

    @Test func aFileAboveTheRepositoryRootIsNotUsed() throws {
        let tree = try Tree()
        defer { tree.remove() }
        // Given a trusted file in the folder that holds a repository
        try tree.configuration(in: "")
        try tree.repository("repo")
        try tree.folder("repo/sub")

        // Then the lookup from inside the repository stops at its root
        #expect(try tree.find(from: "repo/sub") == nil)
        #expect(try tree.find(from: "repo") == nil)
    }

    @Test func outsideARepositoryOnlyTheWorkingDirectoryIsLookedIn() throws {
        let tree = try Tree()
        defer { tree.remove() }
        // Given a file in a folder that is no repository (as /tmp/.replay.json would be)
        let file = try tree.configuration(in: "")
        try tree.folder("x/y")

        // Then it applies in its own folder only, never from a folder below
        #expect(try tree.find(from: "")?.file == file)
        #expect(try tree.find(from: "x") == nil)
        #expect(try tree.find(from: "x/y") == nil)
    }

    @Test(arguments: [0o666, 0o646, 0o602])
    func aFileWritableByEveryUserIsRefused(mode: Int) throws {
        let tree = try Tree()
        defer { tree.remove() }
        let file = try tree.configuration(in: "", mode: mode)

        #expect(
            error { try tree.find(from: "") }
                == refusal(file, "it is writable by every user (mode \(String(mode, radix: 8)))"))
    }

    @Test(arguments: [0o777, 0o1777, 0o757])
    func aFileInAFolderWritableByEveryUserIsRefused(mode: Int) throws {
        let tree = try Tree()
        defer { tree.remove() }
        // Given a folder others may write (as /tmp is), holding a file that is itself yours and 0644
        let folder = try tree.folder("shared", mode: mode)
        try tree.repository("shared")
        let file = try tree.configuration(in: "shared")
        try tree.folder("shared/x")

        // Then the file is refused, from its folder and from below it
        let expected = refusal(file, "its folder \(folder) is writable by every user (mode \(String(mode, radix: 8)))")
        #expect(error { try tree.find(from: "shared") } == expected)
        #expect(error { try tree.find(from: "shared/x") } == expected)
    }

    @Test func aFolderWritableByEveryUserEndsTheLookup() throws {
        let tree = try Tree()
        defer { tree.remove() }
        // Given a repository with a file at its root, and a folder inside it that others may write
        try tree.repository("repo")
        try tree.configuration(in: "repo")
        try tree.folder("repo/shared", mode: 0o777)
        try tree.folder("repo/shared/x")

        // Then the lookup from below that folder does not go through it
        #expect(try tree.find(from: "repo/shared/x") == nil)
        #expect(try tree.find(from: "repo/shared") == nil)
    }

    @Test(.enabled(if: geteuid() == 0, "only root can give a file to another user"))
    func aFileOrFolderOwnedByAnotherUserIsRefused() throws {
        let tree = try Tree()
        defer { tree.remove() }
        let file = try tree.configuration(in: "")
        #expect(chown(file, 65534, 0) == 0)
        #expect(
            error { try tree.find(from: "") } == refusal(file, "it belongs to user 65534, not to you (user 0)"))

        let folder = try tree.folder("theirs")
        let theirs = try tree.configuration(in: "theirs")
        #expect(chown(folder, 65534, 0) == 0)
        #expect(
            error { try tree.find(from: "theirs") }
                == refusal(theirs, "its folder \(folder) belongs to user 65534, not to you (user 0)"))
    }

    @Test(.enabled(if: geteuid() == 0, "only root can give a file to a group it is not in"))
    func aFileWritableByAGroupIsTrustedOnlyWhenTheGroupIsYours() throws {
        let tree = try Tree()
        defer { tree.remove() }
        // Given a group-writable file of your own group (a umask of 002), then it is trusted
        let file = try tree.configuration(in: "", mode: 0o664)
        #expect(try tree.find(from: "")?.file == file)

        // Given the file's group another one, then it is refused
        #expect(chown(file, 0, 65534) == 0)
        #expect(
            error { try tree.find(from: "") }
                == refusal(file, "it is writable by group 65534, which is not yours (mode 664)"))
    }

    @Test func theTrustVariableTrustsTheOneFileItNames() throws {
        let tree = try Tree()
        defer { tree.remove() }
        let file = try tree.configuration(in: "", mode: 0o666)

        #expect(try tree.find(from: "", environment: ["REPLAY_TRUST_CONFIG": file])?.file == file)
        #expect(error { try tree.find(from: "", environment: ["REPLAY_TRUST_CONFIG": file + ".other"]) } != nil)
    }

    @Test func aFIFOIsRefusedAtOnceAsNotARegularFile() throws {
        let tree = try Tree()
        defer { tree.remove() }
        let file = "\(tree.root)/.replay.json"
        #expect(mkfifo(file, 0o644) == 0)

        #expect(error { try tree.find(from: "") } == "Error: \(file): not a regular file")
    }
}
