import Foundation
import StoreKitCore
import StoreKitReplay

/// A session argument: a path, or `-` for standard input (copied to a temporary file when it must be read twice).
///
/// A path must name a regular file: a folder, a FIFO or a device is refused before it is read (a FIFO without a
/// writer would block, `/dev/zero` never ends). Standard input is copied as strictly as it is read, so a line the
/// reader refuses, or a line past the limit, stops the copy there with the reader's error.
struct SessionInput {
    /// The path to read.
    let path: String
    /// How messages name it.
    let displayName: String
    private let temporary: Bool

    init(_ argument: String) throws(CLIError) {
        guard argument == "-" else {
            self.init(file: argument)
            try refuseUnreadable()
            return
        }
        self.init(path: try Self.copyStandardInput(), displayName: "<stdin>", temporary: true)
    }

    /// A session file named on the command line or found in a folder: read where it is, never as standard input.
    /// - Parameter displayName: How messages name it, when not by its path.
    init(file path: String, displayName: String? = nil) {
        self.init(path: path, displayName: displayName ?? path, temporary: false)
    }

    private init(path: String, displayName: String, temporary: Bool) {
        self.path = path
        self.displayName = displayName
        self.temporary = temporary
    }

    /// Opens the session for reading, refusing what is not a regular file: the one place a command opens a session.
    /// - Returns: The file, closed when the handle is released.
    func open() throws(CLIError) -> FileHandle {
        do {
            return FileHandle(fileDescriptor: try SessionReader.openFile(path), closeOnDealloc: true)
        } catch {
            throw CLIError(error, in: self)
        }
    }

    /// Throws the error reading the session would start with when it cannot be opened or is not a regular file.
    func refuseUnreadable() throws(CLIError) {
        try open().closeFile()
    }

    /// The whole session, read strictly into memory; a refusal names the file and line.
    func readWhole() throws(CLIError) -> Session {
        do {
            return try Session(contentsOf: path)
        } catch {
            throw CLIError(error, in: self)
        }
    }

    /// The session's header line, read strictly; the rest of the file is not read.
    func header() throws(CLIError) -> SessionHeader {
        do {
            guard case .header(let header)? = try SessionReader(path: path).next() else {
                throw CLIError(.session, "the session has no header line", file: displayName, line: 1)
            }
            return header
        } catch let error as CLIError {
            throw error
        } catch let error as SessionReadError {
            throw CLIError(error, in: self)
        } catch {
            throw CLIError(.session, "\(error)", file: displayName)
        }
    }

    /// Removes the temporary copy of standard input, if any.
    func cleanUp() {
        if temporary { try? FileManager.default.removeItem(atPath: path) }
    }

    /// Copies standard input, line by line as the reader accepts them, to a new file only this user can read.
    /// - Returns: The copy's path.
    /// - Throws: The reader's error at the first line it refuses, or an output error.
    private static func copyStandardInput() throws(CLIError) -> String {
        let reader = SessionReader(fileDescriptor: 0, source: "<stdin>", ownsDescriptor: false)
        var accepted: [UInt8] = []
        do {
            while try reader.next() != nil {
                accepted += reader.lineBytes
                accepted.append(UInt8(ascii: "\n"))
            }
        } catch {
            throw CLIError(error)
        }
        let copy = "/tmp/replay-cli-stdin-\(getpid())-\(UUID().uuidString.prefix(8)).jsonl"
        guard FileManager.default.createFile(atPath: copy, contents: Data(accepted), attributes: [.posixPermissions: 0o600]) else {
            throw CLIError(.output, "cannot keep standard input in \(copy)")
        }
        return copy
    }
}
