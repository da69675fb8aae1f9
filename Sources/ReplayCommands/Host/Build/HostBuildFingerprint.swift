import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitSystem

/// Everything a `swift build` of the replay host can read, written down as text, so that a build step whose inputs
/// are all as they were before its last successful run can be skipped (``HostBuildStamp``).
///
/// It holds the build command and its directory; the toolchain (`swift` as found on `PATH`, the `swift-build` and
/// `swift-frontend` beside it, and on macOS the Xcode `xcode-select` chose); the environment (hashed); and the
/// path, size, modification and status-change times (nanoseconds), device and inode of every file under the
/// package's directory, under each local (path) dependency's directory that `.build/workspace-state.json` lists,
/// and under `.build/checkouts` (remote dependencies), plus `workspace-state.json` itself. Hidden files and folders
/// (`.build`, `.git`, `.swiftpm`, ...) are left out: SwiftPM takes no sources or resources from them.
///
/// Only a plain `swift build` (options from ``plainOptionsWithValue`` and ``plainFlags``, nothing a shell would
/// expand) in a folder with a `Package.swift` is fingerprinted; anything else is ``Unavailable`` and built every
/// time, as is a package whose walk meets more than ``maximumEntries`` entries, a folder it cannot read, a cycle of
/// symbolic links, or a `workspace-state.json` of a format it does not know.
struct HostBuildFingerprint: Equatable {
    /// The fingerprint, one input a line.
    var text: String

    /// Why a build step has no fingerprint and is run every time.
    struct Unavailable: Error, Equatable {
        /// What made it unavailable, for tests and messages.
        var reason: String
    }

    /// The `swift build` options that take a value and name nothing outside the package.
    static let plainOptionsWithValue: Set<Substring> = ["-c", "--configuration", "--product", "--target", "-j", "--jobs"]
    /// The `swift build` flags that name nothing outside the package.
    static let plainFlags: Set<Substring> = ["-q", "--quiet", "-v", "--verbose", "--build-tests"]
    /// A walk that meets more files and folders than this gives up: the package is not one a replay host lives in.
    static let maximumEntries = 100_000
    /// Environment variables the shell sets anew for each command it runs, which no build reads.
    static let shellBookkeeping: Set<String> = ["_", "PWD", "OLDPWD", "SHLVL"]
    /// The `workspace-state.json` format versions whose dependency list this reads.
    static let workspaceStateVersions: Set<Int64> = [6, 7]

    /// Takes the fingerprint of `command` run in `directory` with `environment`.
    /// - Throws: ``Unavailable`` when the command is not a plain `swift build`, or anything it can read cannot be
    ///   listed (see the type's discussion).
    static func take(command: String, directory: String, environment: [String: String]) throws(Unavailable) -> HostBuildFingerprint {
        guard isPlainSwiftBuild(command) else {
            throw Unavailable(reason: "not a plain 'swift build' command")
        }
        guard FileManager.default.fileExists(atPath: directory + "/Package.swift") else {
            throw Unavailable(reason: "no Package.swift in \(directory)")
        }
        var walk = Walk()
        walk.line("format 1")
        walk.line("command", command)
        walk.line("directory", directory)
        let swift = try toolchain(environment["PATH"] ?? "")
        try walk.file(swift.path, kind: "toolchain")
        let tools = swift.deletingLastPathComponent()
        for tool in ["swift-build", "swift-frontend"] {
            try walk.file(tools.appendingPathComponent(tool).resolvingSymlinksInPath().path, kind: "toolchain", missingAllowed: true)
        }
        // On macOS `/usr/bin/swift` runs the toolchain of the Xcode that `xcode-select` chose (this link's target).
        try walk.file("/var/db/xcode_select_link", kind: "toolchain", missingAllowed: true)
        // Values are hashed: the stamp is a file, and the environment may hold secrets.
        let variables = environment.filter { !shellBookkeeping.contains($0.key) }.sorted { $0.key < $1.key }
        walk.line(
            "environment", "\(variables.count)",
            FNV1a.hexadecimal(variables.map { "\($0.key)=\($0.value)" }.joined(separator: "\0")))
        let workspaceState = directory + "/.build/workspace-state.json"
        try walk.file(workspaceState, kind: "state", missingAllowed: true)
        try walk.tree(directory)
        for dependency in try localDependencies(workspaceState) {
            try walk.tree(dependency, alreadyWalked: .skip)
        }
        if FileManager.default.fileExists(atPath: directory + "/.build/checkouts") {
            try walk.tree(directory + "/.build/checkouts")
        }
        return HostBuildFingerprint(text: walk.text)
    }

    /// Whether `command` is `swift build` with only options that name nothing outside the package, in words a
    /// shell passes on unchanged.
    static func isPlainSwiftBuild(_ command: String) -> Bool {
        let plainCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_. ")
        guard command.allSatisfy(plainCharacters.contains) else { return false }
        let words = command.split(separator: " ")
        guard words.count >= 2, words[0] == "swift", words[1] == "build" else { return false }
        var index = 2
        while index < words.count {
            if plainFlags.contains(words[index]) {
                index += 1
            } else if plainOptionsWithValue.contains(words[index]), index + 1 < words.count, !words[index + 1].hasPrefix("-") {
                index += 2
            } else {
                return false
            }
        }
        return true
    }

    /// The `swift` a shell finds first on `path`, with symbolic links resolved.
    private static func toolchain(_ path: String) throws(Unavailable) -> URL {
        for folder in path.split(separator: ":") where folder.hasPrefix("/") {
            let candidate = "\(folder)/swift"
            if FileManager.default.isExecutableFile(atPath: candidate) {
                return URL(fileURLWithPath: candidate).resolvingSymlinksInPath()
            }
        }
        throw Unavailable(reason: "no 'swift' on PATH")
    }

    /// The folders of the local (path) dependencies and edited dependencies in a `workspace-state.json`; none when
    /// there is no such file yet (the package was never resolved, so the build that makes it runs anyway).
    static func localDependencies(_ file: String) throws(Unavailable) -> [String] {
        guard let data = FileManager.default.contents(atPath: file) else { return [] }
        let state: JSONValue
        do {
            state = try JSONValue(parsing: Array(data))
        } catch {
            throw Unavailable(reason: "\(file) is not valid JSON")
        }
        guard let version = state["version"]?.integerValue, workspaceStateVersions.contains(version),
            let dependencies = state["object"]?["dependencies"]?.arrayValue
        else {
            throw Unavailable(reason: "\(file) is in a format this does not know")
        }
        var folders: [String] = []
        for dependency in dependencies {
            switch dependency["state"]?["name"]?.stringValue {
            case "sourceControlCheckout"?, "registryDownload"?:
                continue
            case "fileSystem"?:
                guard let path = dependency["state"]?["path"]?.stringValue, path.hasPrefix("/") else {
                    throw Unavailable(reason: "\(file) lists a path dependency without an absolute path")
                }
                folders.append(path)
            case "edited"?:
                // Without a path, an edited dependency is in the package's own `Packages` folder, walked with it.
                if let path = dependency["state"]?["path"]?.stringValue { folders.append(path) }
            default:
                throw Unavailable(reason: "\(file) lists a dependency in a state this does not know")
            }
        }
        return folders.sorted()
    }

    /// The fingerprint being written: its lines, and the folders already walked (device and inode).
    private struct Walk {
        var text = ""
        var entries = 0
        var visited: Set<String> = []

        /// What a folder met again means: a dependency inside the package is listed once already; inside one walk,
        /// a cycle of symbolic links (or two links to one folder) is refused.
        enum Revisit { case skip, refuse }

        mutating func line(_ fields: String...) {
            text += fields.map(Self.escaped).joined(separator: " ") + "\n"
        }

        /// One line for the file at `path`: its kind, path and status; `missing` when it does not exist.
        mutating func file(_ path: String, kind: String, missingAllowed: Bool = false) throws(Unavailable) {
            guard let status = try Self.status(path) else {
                guard missingAllowed else { throw Unavailable(reason: "\(path) does not exist") }
                line(kind, path, "missing")
                return
            }
            line(kind, path, Self.describe(status))
        }

        /// A line for every file under `folder` (following symbolic links), in name order, hidden ones left out.
        mutating func tree(_ folder: String, alreadyWalked: Revisit = .refuse) throws(Unavailable) {
            guard let status = try Self.status(folder), status.isDirectory else {
                throw Unavailable(reason: "\(folder) is not a folder")
            }
            guard visited.insert("\(status.identity.device):\(status.identity.inode)").inserted else {
                if alreadyWalked == .skip { return }
                throw Unavailable(reason: "\(folder) is reached twice (a cycle of symbolic links?)")
            }
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: folder)
            } catch {
                throw Unavailable(reason: "cannot list \(folder): \(error)")
            }
            line("folder", folder)
            for name in names.sorted() where !name.hasPrefix(".") {
                entries += 1
                guard entries <= HostBuildFingerprint.maximumEntries else {
                    throw Unavailable(reason: "more than \(HostBuildFingerprint.maximumEntries) files")
                }
                let path = folder + "/" + name
                guard let status = try Self.status(path) else {
                    // A link to nothing: SwiftPM reads nothing through it, but its target may appear later.
                    line("dangling", path)
                    continue
                }
                if status.isDirectory {
                    try tree(path)
                } else {
                    line("file", path, Self.describe(status))
                }
            }
        }

        private static func status(_ path: String) throws(Unavailable) -> Syscall.FileStatus? {
            do {
                return try Syscall.status(path)
            } catch {
                throw Unavailable(reason: "\(error)")
            }
        }

        /// Size, modification and status-change times (ns), device and inode.
        private static func describe(_ status: Syscall.FileStatus) -> String {
            "\(status.size) \(status.modifiedNanoseconds) \(status.changedNanoseconds) \(status.identity.device) \(status.identity.inode)"
        }

        /// A field with backslashes and line breaks escaped, so that each line stays one line.
        private static func escaped(_ field: String) -> String {
            guard field.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\n") }) else { return field }
            return field.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
        }
    }
}
