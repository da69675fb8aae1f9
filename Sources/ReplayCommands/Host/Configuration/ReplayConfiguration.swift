import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import StoreKitSystem

/// The `.replay.json` that applies to the working directory: the one lookup that the host, its build step and the
/// ignored paths all read it through.
///
/// The file names commands that `replay-cli` runs through `/bin/sh` as you, so it is looked up as git looks up a
/// repository since `safe.directory`:
/// - in the working directory, then in each parent up to the repository root (the first folder holding `.git`, a
///   file or a folder); outside a repository, in the working directory only, so that `/tmp/.replay.json` is never
///   used from `/tmp/x/y`;
/// - a file is refused when another user owns it or may write it, or when it lies in a folder that another user owns
///   or may write (who could have put it there); such a folder also ends the lookup.
///
/// "Another user" is anyone but you and root. "May write" means the mode lets every user write, or a group other than
/// your own primary group. `REPLAY_TRUST_CONFIG=<path>` trusts the one file at that path whatever its owner and mode.
package struct ReplayConfiguration {
    /// The file's absolute path.
    package var file: String
    /// The folder it is in, where the commands it names run.
    package var directory: String
    /// The file's document.
    package var json: JSONValue

    /// The name of the file looked for.
    static let fileName = ".replay.json"
    /// The environment variable that names the one `.replay.json` trusted whatever its owner and mode.
    static let trustVariable = "REPLAY_TRUST_CONFIG"
    /// A larger file is refused unread: a `.replay.json` holds a few commands and patterns.
    static let maximumBytes = 1 << 20

    /// Finds, checks and reads the `.replay.json` that applies to `context`'s working directory.
    /// - Returns: `nil` when there is none between the working directory and the repository root, or a folder on the
    ///   way that others may write ends the lookup first.
    /// - Throws: ``CLIError`` naming the file when it is not trusted (and how to trust it), cannot be read, is not a
    ///   regular file, or is not valid JSON.
    package static func find(_ context: CommandContext) throws(CLIError) -> ReplayConfiguration? {
        let trusted = context.environment[trustVariable].flatMap { path in
            path.isEmpty ? nil : URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: context.currentDirectory))
                .standardizedFileURL.path
        }
        for directory in searchedFolders(from: context.currentDirectory) {
            guard let folder = try status(of: directory) else { return nil }
            let file = URL(fileURLWithPath: directory).appendingPathComponent(fileName).path
            guard let document = try openRegularFile(file) else {
                if distrust(folder) != nil { return nil }
                continue
            }
            defer { try? Syscall.close(document) }
            let fileStatus = try status(ofOpen: document, file: file)
            if file != trusted {
                if let reason = distrust(folder) { throw refusal(file, "its folder \(directory) \(reason)") }
                if let reason = distrust(fileStatus) { throw refusal(file, "it \(reason)") }
            }
            let bytes = try read(document, file: file)
            do {
                return ReplayConfiguration(file: file, directory: directory, json: try JSONValue(parsing: bytes))
            } catch {
                throw CLIError(.input, "not valid JSON: \(error)", file: file)
            }
        }
        return nil
    }

    /// The folders looked in, nearest first: from `start` up to the repository root, or `start` alone outside one.
    private static func searchedFolders(from start: String) -> [String] {
        var folders: [URL] = []
        var directory = URL(fileURLWithPath: start).standardizedFileURL
        while true {
            folders.append(directory)
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent(".git").path) {
                return folders.map(\.path)
            }
            let parent = directory.deletingLastPathComponent()
            if parent.path == directory.path { return [folders[0].path] }
            directory = parent
        }
    }

    /// Why what a file or folder with `status` holds may have been written by someone other than you or root, or
    /// `nil` when it cannot: the words after "it" in a refusal.
    private static func distrust(_ status: Syscall.FileStatus) -> String? {
        let mode = "(mode \(String(status.permissions, radix: 8)))"
        let user = geteuid()
        if status.owner != user, status.owner != 0 { return "belongs to user \(status.owner), not to you (user \(user))" }
        if status.permissions & 0o002 != 0 { return "is writable by every user \(mode)" }
        if status.permissions & 0o020 != 0, status.group != getegid() {
            return "is writable by group \(status.group), which is not yours \(mode)"
        }
        return nil
    }

    private static func refusal(_ file: String, _ reason: String) -> CLIError {
        CLIError(
            .input,
            "not trusted: \(reason), and a .replay.json names commands that run as you. Make the file and its folder "
                + "yours and writable only by you (chown, chmod go-w), or set \(trustVariable)=\(file) to trust this "
                + "one file (see docs/replay-cli.md#trusting-replayjson)",
            file: file)
    }

    /// The status of `path`, or `nil` when it no longer exists.
    private static func status(of path: String) throws(CLIError) -> Syscall.FileStatus? {
        do {
            return try Syscall.status(path)
        } catch {
            throw CLIError(.input, "cannot look for \(fileName) here: \(error)", file: path)
        }
    }

    private static func status(ofOpen document: Int32, file: String) throws(CLIError) -> Syscall.FileStatus {
        do {
            return try Syscall.status(of: document, subject: file)
        } catch {
            throw CLIError(.input, "cannot read: \(error)", file: file)
        }
    }

    /// Opens `file` for reading when it is a regular file (``Syscall/openRegularFile(_:flags:mode:)``: a FIFO never
    /// blocks the lookup), or returns `nil` when it does not exist.
    /// - Throws: ``CLIError`` when it cannot be opened or is not a regular file.
    private static func openRegularFile(_ file: String) throws(CLIError) -> Int32? {
        do {
            return try Syscall.openRegularFile(file)
        } catch {
            switch error {
            case .system(let error) where error.errno == ENOENT: return nil
            case .system(let error): throw CLIError(.input, "cannot read: \(error)", file: file)
            case .notRegular: throw CLIError(.input, "not a regular file", file: file)
            }
        }
    }

    /// The whole of the file open as `document`.
    private static func read(_ document: Int32, file: String) throws(CLIError) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count: Int
            do {
                count = try Syscall.read(document, into: &buffer)
            } catch {
                throw CLIError(.input, "cannot read: \(error)", file: file)
            }
            if count == 0 { return bytes }
            bytes += buffer.prefix(count)
            if bytes.count > maximumBytes {
                throw CLIError(.input, "longer than \(maximumBytes) bytes, which no .replay.json needs", file: file)
            }
        }
    }
}
