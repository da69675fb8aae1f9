import Foundation
import StoreKitCore
import StoreKitSystem

/// What the last successful run of a build step started from: the ``HostBuildFingerprint`` taken just before it
/// ran, and the host's executable as that run left it. While both are still so, running the step again cannot
/// change anything, and ``HostBuild`` skips it.
///
/// Kept in `.build/replay-host-build-stamps/` of the build's folder, one file per build command (the file's name
/// is a hash of the command, and the command is inside it). The stamp is removed before the step runs and written
/// only after it succeeded, so a failed or interrupted build always leaves the next replay to build again; since the
/// fingerprint is taken before the build, a file edited while it runs is seen as changed next time.
struct HostBuildStamp {
    /// The stamp's file.
    var path: String

    /// The stamp of `command` built in `directory`.
    init(command: String, directory: String) {
        path = "\(directory)/.build/replay-host-build-stamps/\(FNV1a.hexadecimal(command)).txt"
    }

    /// Whether the stamp records exactly `fingerprint`, and the executable at `executable` is as that build left it.
    func holds(_ fingerprint: HostBuildFingerprint, executable: String?) -> Bool {
        guard let recorded = FileManager.default.contents(atPath: path), let contents = Self.contents(fingerprint, executable: executable)
        else { return false }
        return recorded == contents
    }

    /// Removes the stamp (before the build step runs); a stamp that cannot be removed is reported.
    /// - Throws: ``CLIError`` when it exists and cannot be removed, since it could then skip a later build wrongly.
    func remove() throws(CLIError) {
        do {
            try Syscall.unlink(path)
        } catch {
            throw CLIError(.host, "cannot remove the replay host's build stamp \(path): \(error)")
        }
    }

    /// Records `fingerprint`, taken before a build step that has just succeeded, with the executable as it left it.
    /// Nothing is recorded when the executable does not exist; a stamp that cannot be written only means the next
    /// replay builds again.
    func record(_ fingerprint: HostBuildFingerprint, executable: String?) {
        guard let contents = Self.contents(fingerprint, executable: executable) else { return }
        do {
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try contents.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            // Without a stamp the next replay runs the build step, as it would have without this feature.
            return
        }
    }

    /// The fingerprint followed by a line for the executable; `nil` when the executable does not exist.
    private static func contents(_ fingerprint: HostBuildFingerprint, executable: String?) -> Data? {
        guard let executable, let status = try? Syscall.status(executable), !status.isDirectory else { return nil }
        return Data(
            (fingerprint.text
                + "executable \(executable) \(status.size) \(status.modifiedNanoseconds) \(status.changedNanoseconds) "
                + "\(status.identity.device) \(status.identity.inode)\n").utf8)
    }
}
