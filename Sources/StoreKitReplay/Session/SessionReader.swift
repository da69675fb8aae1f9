import Foundation
import StoreKitCore

/// Reads a session file one line at a time, in constant memory whatever the file's size.
///
/// The reader checks the framing (complete lines, size limit, valid JSON objects, known kinds and fields, a header
/// first and only first) and turns each line into a ``SessionEvent``. Anything wrong is thrown as a
/// ``SessionReadError`` naming the source, the line and the problem; the reader never skips a line silently.
///
/// ```swift
/// let reader = try SessionReader(path: "todos.jsonl")
/// while let event = try reader.next() { ... }
/// ```
public final class SessionReader {
    /// The file's path, or `<stdin>`.
    public let source: String
    private var lines: LineReader
    private let fd: Int32
    private let ownsDescriptor: Bool
    private let maxLineBytes: Int
    private var sawHeader = false
    /// The state of the last line, the base a `patch` line applies to; `nil` after a gap.
    private var previousState: JSONValue?
    private var lastLineNumber = 0

    /// Opens the session file at `path` (`-` reads standard input).
    /// - Parameters:
    ///   - path: The file to read, or `-` for standard input.
    ///   - maxLineBytes: The longest line accepted; longer lines throw ``SessionReadError/Problem/lineTooLong(byteCount:limit:)``.
    /// - Throws: ``SessionReadError`` with ``SessionReadError/Problem/io(_:)`` when the file cannot be opened.
    public convenience init(path: String, maxLineBytes: Int = SessionFormat.defaultMaxLineBytes) throws(SessionReadError) {
        if path == "-" {
            self.init(fileDescriptor: 0, source: "<stdin>", ownsDescriptor: false, maxLineBytes: maxLineBytes)
            return
        }
        let fd: Int32
        do {
            fd = try Syscall.open(path, O_RDONLY)
        } catch {
            throw SessionReadError(source: path, line: 0, problem: .io(error))
        }
        self.init(fileDescriptor: fd, source: path, ownsDescriptor: true, maxLineBytes: maxLineBytes)
    }

    /// Reads from an open descriptor; the reader closes it when done only if `ownsDescriptor` is true.
    public init(fileDescriptor: Int32, source: String, ownsDescriptor: Bool, maxLineBytes: Int = SessionFormat.defaultMaxLineBytes) {
        self.source = source
        self.fd = fileDescriptor
        self.ownsDescriptor = ownsDescriptor
        self.maxLineBytes = maxLineBytes
        self.lines = LineReader(fileDescriptor: fileDescriptor, maxLineBytes: maxLineBytes)
    }

    /// Reads a session held in memory; `source` names it in errors.
    public init(bytes: [UInt8], source: String, maxLineBytes: Int = SessionFormat.defaultMaxLineBytes) {
        self.source = source
        self.fd = -1
        self.ownsDescriptor = false
        self.maxLineBytes = maxLineBytes
        self.lines = LineReader(bytes: bytes, maxLineBytes: maxLineBytes)
    }

    deinit {
        if ownsDescriptor { try? Syscall.close(fd, subject: source) }
    }

    /// The number of the line the last event came from.
    public var lineNumber: Int { lastLineNumber }

    /// The next event, or `nil` after the last line.
    /// - Throws: ``SessionReadError`` for the first line that is not a valid event.
    public func next() throws(SessionReadError) -> SessionEvent? {
        let line: LineReader.Line?
        do {
            line = try lines.next()
        } catch {
            throw SessionReadError(source: source, line: lastLineNumber + 1, problem: .io(error))
        }
        guard let line else {
            if !sawHeader { throw SessionReadError(source: source, line: 0, problem: .empty) }
            return nil
        }
        lastLineNumber = line.number
        var event = try decode(line)
        switch event {
        case .header(let header):
            if sawHeader { throw error(.duplicateHeader) }
            guard header.formatVersion == SessionFormat.version else {
                throw error(.unsupportedFormat(header.formatVersion))
            }
            sawHeader = true
            previousState = header.initialState
        default:
            if !sawHeader { throw error(.missingHeader(foundKind: event.kind.rawValue)) }
        }
        switch event {
        case .action(var action):
            if let patch = action.patch {
                guard let base = previousState else {
                    throw error(
                        .invalidEvent(
                            SessionEventDecodingError(
                                path: "patch",
                                message: "has no state to apply to: a gap came before it (after a gap a line holds a full 'state')")))
                }
                do {
                    action.state = try patch.apply(to: base)
                } catch {
                    throw self.error(.invalidEvent(SessionEventDecodingError(path: "patch", message: "\(error)")))
                }
                event = .action(action)
            }
            previousState = action.state
        case .gap:
            previousState = nil
        default:
            break
        }
        return event
    }

    private func decode(_ line: LineReader.Line) throws(SessionReadError) -> SessionEvent {
        let bytes: [UInt8]
        switch line.content {
        case .tooLong(let count):
            throw error(.lineTooLong(byteCount: count, limit: maxLineBytes))
        case .bytes(let content):
            bytes = content
        }
        if bytes.isEmpty { throw error(.emptyLine) }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: bytes)
        } catch {
            throw self.error(line.isTerminated ? .notJSON(error) : .truncatedLastLine(error))
        }
        do {
            return try SessionEvent(jsonValue: value)
        } catch {
            throw self.error(.invalidEvent(error))
        }
    }

    private func error(_ problem: SessionReadError.Problem) -> SessionReadError {
        SessionReadError(source: source, line: lastLineNumber, problem: problem)
    }
}
