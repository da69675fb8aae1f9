import StoreKitCore
import StoreKitReplay

import Foundation

/// Rewrites a session file in place, the way a golden under version control wants it: the new bytes replace the
/// old at once (a rename), with the old file's mode, and a backup never overwrites an earlier one.
struct SessionFileRewrite {
    /// The session file.
    var path: String

    /// Copies the file to `<path>.orig`, or to the first of `<path>.orig.1`, `.orig.2` ... that does not exist, so
    /// the first original is never lost. Returns the backup's path.
    /// - Throws: ``CLIError`` when the copy cannot be made.
    func keepBackup() throws(CLIError) -> String {
        var backup = path + ".orig"
        var number = 0
        while FileManager.default.fileExists(atPath: backup) {
            number += 1
            backup = "\(path).orig.\(number)"
        }
        do {
            try FileManager.default.copyItem(atPath: path, toPath: backup)
        } catch {
            throw CLIError(.output, "cannot keep the original of '\(path)' as '\(backup)': \(error.localizedDescription)")
        }
        return backup
    }

    /// Replaces the file's contents with `bytes`, keeping its permissions.
    /// - Throws: ``CLIError`` when the file cannot be read, written or renamed.
    func replace(with bytes: [UInt8]) throws(CLIError) {
        let temporary = "\(path).update-\(getpid())"
        do {
            let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int ?? 0o644
            guard FileManager.default.createFile(atPath: temporary, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                throw CLIError(.output, "cannot create '\(temporary)'")
            }
            try Data(bytes).write(to: URL(fileURLWithPath: temporary))
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: temporary)
            guard rename(temporary, path) == 0 else {
                throw CLIError(.output, "cannot rename '\(temporary)' to '\(path)': \(String(cString: strerror(errno)))")
            }
        } catch let error as CLIError {
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw CLIError(.output, "cannot rewrite '\(path)': \(error.localizedDescription)")
        }
    }
}
