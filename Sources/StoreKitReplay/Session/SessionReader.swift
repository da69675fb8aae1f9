import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitSystem

/// Reads a session file one line at a time, in constant memory whatever the file's size.
///
/// The reader splits the input into lines and hands each to a ``SessionLineDecoder``, the one strict reading of a
/// session that ``SessionVerifier`` shares: framing, fields, a header first and only first, sequence numbers with
/// no repeat, step back or unexplained skip, patches that apply. Anything wrong is thrown as a ``SessionReadError``
/// naming the source, the line and the problem; the reader never skips a line silently.
///
/// A regular file, named or on standard input, is read as it was when the reader was made: as far as its size then,
/// so a session still being recorded is judged as far as it had come, and a file that keeps growing cannot keep the
/// reader going. A last line that was still being written then is not yet part of the session and is left out; one
/// that stayed cut off is refused as cut off. Only ``init(following:waitForMore:)`` reads on as the file grows.
///
/// ```swift
/// let reader = try SessionReader(path: "todos.jsonl")
/// while let event = try reader.next() { ... }
/// ```
public final class SessionReader {
    // What is read and written for every line is not checked for exclusivity at run time (docs/performance.md): a
    // reader is used by one thread at a time, and none of its methods passes these properties inout to code that
    // could reach the reader again. The line reader stays checked: it calls a follower's `waitForMore`.

    /// The file's path, or `<stdin>`.
    public let source: String
    private var lines: LineReader
    private let fd: Int32
    private let ownsDescriptor: Bool
    @exclusivity(unchecked) private var decoder: SessionLineDecoder
    /// The error that stopped the reader.
    private var failure: SessionReadError?
    /// Checks a line's JSON without building it, for ``defersRecordedStates``.
    @exclusivity(unchecked) private var scanner = JSONLineScanner()
    /// What the scanner remembers of the last line, whose unchanged parts it then passes over.
    private let lineMemory = JSONLineMemory()

    /// Whether an action's full `state` is left unbuilt: each line is scanned (``JSONLineScanner``), and an action
    /// line with a state object is read from its members, checked by the rules of every reading, with an empty
    /// object as its ``ActionEvent/state``, which ``takeUnbuiltState()`` builds when it is needed. A replay compares
    /// the replayed state's canonical bytes with ``recordedStateBytes`` first, and most steps need no more. Off
    /// unless the caller says it takes the state so.
    package var defersRecordedStates = false
    /// Whether the last event's state was left unbuilt and not yet taken.
    @exclusivity(unchecked) private var stateIsUnbuilt = false

    /// Opens the session file at `path` (`-` reads standard input).
    /// - Parameters:
    ///   - path: The file to read, or `-` for standard input.
    ///   - maxLineBytes: The longest line accepted; a longer line throws
    ///     ``SessionReadError/Problem/lineTooLong(limit:)`` as soon as it passes the limit.
    /// - Throws: ``SessionReadError`` with ``SessionReadError/Problem/io(_:)`` when the file cannot be opened, and
    ///   ``SessionReadError/Problem/notRegularFile(_:)`` when `path` names a folder, a FIFO or a device.
    public convenience init(path: String, maxLineBytes: Int = SessionFormat.defaultMaxLineBytes) throws(SessionReadError) {
        if path == "-" {
            self.init(fileDescriptor: 0, source: "<stdin>", ownsDescriptor: false, maxLineBytes: maxLineBytes)
            return
        }
        self.init(fileDescriptor: try Self.openFile(path), source: path, ownsDescriptor: true, maxLineBytes: maxLineBytes)
    }

    /// Reads the session file at `path` as it is written, as `log --follow` does: at the end of the file the reader
    /// calls `waitForMore` and reads again, so it ends only at a line it refuses (or when its caller stops).
    /// - Throws: ``SessionReadError`` when the file cannot be opened or is not a regular file.
    package convenience init(following path: String, waitForMore: @escaping () -> Void) throws(SessionReadError) {
        self.init(
            fileDescriptor: try Self.openFile(path), source: path, ownsDescriptor: true,
            lines: { LineReader(fileDescriptor: $0, maxLineBytes: SessionFormat.defaultMaxLineBytes, waitForMore: waitForMore) })
    }

    /// Reads from an open descriptor, from its current offset (a regular file as far as its size now); the reader
    /// closes it when done only if `ownsDescriptor` is true.
    public convenience init(fileDescriptor: Int32, source: String, ownsDescriptor: Bool, maxLineBytes: Int = SessionFormat.defaultMaxLineBytes) {
        self.init(
            fileDescriptor: fileDescriptor, source: source, ownsDescriptor: ownsDescriptor,
            lines: { LineReader(fileDescriptor: $0, maxLineBytes: maxLineBytes) })
    }

    private init(fileDescriptor: Int32, source: String, ownsDescriptor: Bool, lines: (Int32) -> LineReader) {
        self.source = source
        self.fd = fileDescriptor
        self.ownsDescriptor = ownsDescriptor
        self.lines = lines(fileDescriptor)
        self.decoder = SessionLineDecoder(source: source, maxLineBytes: self.lines.maxLineBytes)
    }

    /// Opens the session file at `path` for reading: the one place a session file is opened. Anything but a regular
    /// file is refused before a byte is read (a FIFO without a writer would block, `/dev/zero` never ends).
    /// - Throws: ``SessionReadError`` at line 0 with ``SessionReadError/Problem/io(_:)`` or
    ///   ``SessionReadError/Problem/notRegularFile(_:)``.
    package static func openFile(_ path: String) throws(SessionReadError) -> Int32 {
        do {
            return try Syscall.openRegularFile(path)
        } catch {
            switch error {
            case .system(let failure): throw SessionReadError(source: path, line: 0, problem: .io(failure))
            case .notRegular(let kind): throw SessionReadError(source: path, line: 0, problem: .notRegularFile(kind))
            }
        }
    }

    /// Reads a session held in memory; `source` names it in errors.
    public init(bytes: [UInt8], source: String, maxLineBytes: Int = SessionFormat.defaultMaxLineBytes) {
        self.source = source
        self.fd = -1
        self.ownsDescriptor = false
        self.decoder = SessionLineDecoder(source: source, maxLineBytes: maxLineBytes)
        self.lines = LineReader(bytes: bytes, maxLineBytes: maxLineBytes)
    }

    deinit {
        if ownsDescriptor { try? Syscall.close(fd, subject: source) }
    }

    /// The number of the line the last event came from.
    public var lineNumber: Int { decoder.lineNumber }

    /// The bytes of the last event's `state` as its line holds them, when it holds one (not a patch): a replay
    /// compares them with the replayed state's canonical bytes before it compares values.
    @exclusivity(unchecked) private(set) var recordedStateBytes: ArraySlice<UInt8>?

    /// The bytes of the line the last event came from, without its `\n`: what a copy of the session keeps.
    @exclusivity(unchecked) package private(set) var lineBytes: [UInt8] = []

    /// The next event, or `nil` after the last line.
    /// - Throws: ``SessionReadError`` for the first line that ``SessionLineDecoder`` refuses, and the same error
    ///   again on every call after it: the reader never reads past a broken line.
    public func next() throws(SessionReadError) -> SessionEvent? {
        if let failure { throw failure }
        do {
            return try readNext()
        } catch {
            failure = error
            throw error
        }
    }

    /// The state of the last event, built from its line, when ``defersRecordedStates`` left it unbuilt: `nil` when it
    /// was built, or taken already.
    /// - Throws: ``SessionReadError`` at the event's line when the state does not parse after all.
    package func takeUnbuiltState() throws(SessionReadError) -> JSONValue? {
        guard stateIsUnbuilt, let recordedStateBytes else { return nil }
        stateIsUnbuilt = false
        do {
            return try JSONParser().parse(recordedStateBytes)
        } catch {
            throw SessionReadError(source: source, line: decoder.lineNumber, problem: .notJSON(error))
        }
    }

    /// The shortest line the scanner compares with the last one it remembered: a short line costs less to check
    /// than to remember (docs/performance.md).
    private static var shortestLineToRemember: Int { 1024 }

    /// The top-level members of `line` when it is one valid JSON object the scanner can vouch for; else `nil`,
    /// and the line is parsed whole.
    private func scannedMembers(of line: [UInt8]) -> [JSONLineScanner.Member]? {
        let valid = line.withUnsafeBufferPointer { scanner.scanObject($0, memory: line.count >= Self.shortestLineToRemember ? lineMemory : nil) }
        return valid ? scanner.members : nil
    }

    private func readNext() throws(SessionReadError) -> SessionEvent? {
        recordedStateBytes = nil
        stateIsUnbuilt = false
        let line: LineReader.Line?
        do {
            line = try lines.next()
        } catch {
            throw SessionReadError(source: source, line: decoder.lineNumber + 1, problem: .io(error))
        }
        guard let line else {
            try decoder.finish()
            return nil
        }
        switch line.content {
        case .tooLong:
            try decoder.decodeOverlongLine()
        case .bytes(let bytes):
            let members = defersRecordedStates ? scannedMembers(of: bytes) : nil
            let decoded: (event: SessionEvent, state: Range<Int>?)
            if let members {
                let scanned = try decoder.decodeScanned(line: bytes, isTerminated: line.isTerminated, members: members)
                decoded = (scanned.event, scanned.state)
                stateIsUnbuilt = scanned.stateIsUnbuilt
            } else {
                let parsed = try decoder.decodeLocatingState(line: bytes, isTerminated: line.isTerminated)
                decoded = (parsed.event, parsed.state)
            }
            recordedStateBytes = decoded.state.map { bytes[$0] }
            lineBytes = bytes
            return decoded.event
        }
    }
}
