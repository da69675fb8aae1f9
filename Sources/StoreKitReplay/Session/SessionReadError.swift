import StoreKitCore
import StoreKitJSON
import StoreKitSystem

/// A session that cannot be read: where (source and line) and what is wrong.
///
/// Rendered like `todos.jsonl:17: field 'kind' is 'acton'; expected one of 'session', 'action', 'gap', 'end'`.
public struct SessionReadError: Error, Sendable, CustomStringConvertible {
    /// What is wrong.
    public enum Problem: Sendable {
        /// The file could not be opened or read.
        case io(SystemError)
        /// The path names something other than a regular file (a folder, a FIFO, a device), which is refused
        /// before it is read: a FIFO without a writer would block, and a device such as `/dev/zero` never ends.
        case notRegularFile(FileKind)
        /// The input holds no lines at all.
        case empty
        /// The line is longer than the reader's limit, `limit` bytes; the reader read no further than the limit.
        case lineTooLong(limit: Int)
        /// The line is empty.
        case emptyLine
        /// The line is not valid JSON.
        case notJSON(JSONParseError)
        /// The last line has no `\n` and is not valid JSON: the write was cut off.
        case truncatedLastLine(JSONParseError)
        /// The line is JSON but not a valid event.
        case invalidEvent(SessionEventDecodingError)
        /// The first line is not a `session` header.
        case missingHeader(foundKind: String)
        /// A second `session` header.
        case duplicateHeader
        /// The header names a format version this library cannot read.
        case unsupportedFormat(Int)
        /// An action's `seq` is not above `covered`, the last sequence number the lines before it cover: it repeats
        /// or goes backwards.
        case sequenceNotIncreasing(sequence: Int, covered: Int)
        /// An action's `seq` skips the numbers after `covered` with no `gap` line to name them.
        case sequenceSkipped(sequence: Int, covered: Int)
        /// A `gap` line does not start right after `covered`, the last sequence number the lines before it cover.
        case gapNotContiguous(first: Int, last: Int, covered: Int)
        /// An effect line breaks the rules between effect lines.
        case effectLine(EffectLineProblem)
    }

    /// The file's path, or `<stdin>`.
    public var source: String
    /// The 1-based line number, or 0 when the problem is not on a line.
    public var line: Int
    /// What is wrong.
    public var problem: Problem

    /// Creates an error at `source:line`.
    public init(source: String, line: Int, problem: Problem) {
        self.source = source
        self.line = line
        self.problem = problem
    }

    /// `source:line: what is wrong`.
    public var description: String {
        let location = line > 0 ? "\(source):\(line)" : source
        return "\(location): \(reason)"
    }

    /// What is wrong, without the location.
    public var reason: String {
        switch problem {
        case .io(let error):
            "cannot read the session: \(error)"
        case .empty:
            "the session is empty (expected a 'session' header line)"
        case .notRegularFile(let kind):
            "cannot read the session: \(RegularFileError.notRegular(kind))"
        case .lineTooLong(let limit):
            "line is longer than the limit of \(limit) bytes"
        case .emptyLine:
            "line is empty (every line must hold one JSON object)"
        case .notJSON(let error):
            "not valid JSON: \(error)"
        case .truncatedLastLine(let error):
            "the last line is cut off (no newline at the end and not valid JSON: \(error))"
        case .invalidEvent(let error):
            "\(error)"
        case .missingHeader(let kind):
            "the first line has kind '\(kind.escapingControls())'; a session must start with a 'session' header line"
        case .duplicateHeader:
            "a second 'session' header line; a session has exactly one, on its first line"
        case .unsupportedFormat(let version):
            "format version \(version) is not supported (this reader reads versions \(SessionFormat.readableVersions.lowerBound) to \(SessionFormat.readableVersions.upperBound))"
        case .sequenceNotIncreasing(let sequence, let covered):
            "seq \(sequence) repeats or goes backwards: the lines before it cover sequence numbers up to \(covered)"
        case .sequenceSkipped(let sequence, let covered):
            "seq \(sequence) skips \(Self.range(covered + 1, sequence - 1)) with no 'gap' line for them (the lines before it cover up to \(covered))"
        case .gapNotContiguous(let first, let last, let covered):
            "gap \(Self.range(first, last)) does not start right after the sequence numbers already covered (up to \(covered)); it must start at \(covered + 1)"
        case .effectLine(let problem):
            "\(problem)"
        }
    }

    /// `5` or `5...9`.
    static func range(_ first: Int, _ last: Int) -> String {
        first == last ? "\(first)" : "\(first)...\(last)"
    }
}
