import Foundation

/// Where the export commands write: a file, with the folders above it made as needed.
enum ExportedFile {
    /// Writes `bytes` to `path`, making its folder first.
    /// - Throws: ``CLIError`` (output) naming the path when the folder or the file cannot be written.
    static func write(_ bytes: [UInt8], to path: String) throws(CLIError) {
        do {
            try FileManager.default.createDirectory(
                at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        } catch {
            throw CLIError(.output, "cannot write '\(path)': \(error.localizedDescription)")
        }
    }
}
