import Foundation
import StoreKitCore
import StoreKitReplay

/// A session argument: a path, or `-` for standard input (copied to a temporary file when it must be read twice).
struct SessionInput {
    /// The path to read.
    let path: String
    /// How messages name it.
    let displayName: String
    private let temporary: Bool

    init(_ argument: String) throws(CLIError) {
        guard argument == "-" else {
            path = argument
            displayName = argument
            temporary = false
            return
        }
        let copy = "/tmp/replay-cli-stdin-\(getpid())-\(UUID().uuidString.prefix(8)).jsonl"
        let data = FileHandle.standardInput.readDataToEndOfFile()
        guard FileManager.default.createFile(atPath: copy, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw CLIError(.output, "cannot keep standard input in \(copy)")
        }
        path = copy
        displayName = "<stdin>"
        temporary = true
    }

    /// A session file named on the command line or found in a folder: read where it is, never as standard input.
    init(file path: String) {
        self.path = path
        displayName = path
        temporary = false
    }

    /// The whole session, read strictly into memory; a refusal names the file and line.
    func readWhole() throws(CLIError) -> Session {
        do {
            return try Session(contentsOf: path)
        } catch {
            throw CLIError(error, in: self)
        }
    }

    /// Removes the temporary copy of standard input, if any.
    func cleanUp() {
        if temporary { try? FileManager.default.removeItem(atPath: path) }
    }
}
