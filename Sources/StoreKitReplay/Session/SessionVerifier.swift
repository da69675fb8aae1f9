import StoreKitCore
import StoreKitJSON
import StoreKitSystem

/// Checks a session against the format and lists every problem, not only the first.
///
/// The verifier reads with the same ``SessionLineDecoder`` as ``SessionReader``, but goes on after a line it
/// refuses, so a file is valid (no errors) exactly when the reader reads it to the end, and each error is the
/// reader's own message (``SessionReadError/reason``) at the reader's line. After a refused line the decoder assumes
/// as little as it can (see ``SessionLineDecoder``), so one broken line does not bury the lines after it in errors.
/// It stops at an over-long line (the rest of it may never end) and after ``maxErrors`` errors.
///
/// Warnings point at what the reader accepts but a healthy recording would not hold: a last line without `\n`, no
/// `end` line (the recording was cut off or still runs), a line after the `end` line, and a line the reader reads
/// that the JSON Schema in ``SessionSchema`` describes otherwise (an unknown field, for example).
public enum SessionVerifier {
    /// One problem, at a line.
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        /// The 1-based line, or 0 for the whole file.
        public var line: Int
        /// What is wrong: for an error, the reader's reason.
        public var message: String
        /// Whether the reader still reads the file (a warning) or refuses it (an error).
        public var isWarning: Bool

        /// Creates a problem at `line` (0 for the whole file).
        public init(line: Int, message: String, isWarning: Bool) {
            self.line = line
            self.message = message
            self.isWarning = isWarning
        }

        /// `line 7: message`.
        public var description: String { line > 0 ? "line \(line): \(message)" : message }
    }

    /// What verifying one file found.
    public struct Result: Sendable, Equatable {
        /// Lines read.
        public var lines: Int
        /// Action lines that decoded.
        public var actions: Int
        /// Every problem found, in line order.
        public var problems: [Problem]
        /// False when the file could not be opened or read at all (the one problem says why).
        public var isReadable: Bool

        /// True when there is no error (warnings allowed): exactly when ``SessionReader`` reads the whole file.
        public var isValid: Bool { !problems.contains { !$0.isWarning } }
    }

    /// The most errors listed for one input: past them the verifier stops, so endless garbage (random bytes on
    /// standard input) ends with an answer.
    public static let maxErrors = 100

    /// How far a verification has read, for a progress line.
    public struct Progress: Sendable, Equatable {
        /// The lines read so far.
        public var lines: Int
        /// The bytes those lines took, their `\n`s included.
        public var bytesRead: Int64
        /// The bytes a regular file held when the verification began, all that it reads; `nil` for standard input.
        public var totalBytes: Int64?

        /// Creates a progress report.
        public init(lines: Int, bytesRead: Int64, totalBytes: Int64?) {
            self.lines = lines
            self.bytesRead = bytesRead
            self.totalBytes = totalBytes
        }
    }

    /// Verifies the session at `path` (`-` for standard input).
    ///
    /// A path that names anything but a regular file (a folder, a FIFO, a device) is refused unread. An over-long
    /// line ends the verification at that line: the rest of it is not read, as it may never end.
    /// - Parameter onProgress: Called after each line is read with how far the verification has read, for a
    ///   progress line.
    public static func verify(
        path: String, maxLineBytes: Int = SessionFormat.defaultMaxLineBytes, onProgress: ((Progress) -> Void)? = nil
    ) -> Result {
        if path == "-" {
            var lines = LineReader(fileDescriptor: 0, maxLineBytes: maxLineBytes)
            return verify(&lines, source: "<stdin>", maxLineBytes: maxLineBytes, onProgress: onProgress)
        }
        let fd: Int32
        do {
            fd = try SessionReader.openFile(path)
        } catch let failure {
            return Result(
                lines: 0, actions: 0, problems: [Problem(line: 0, message: failure.reason, isWarning: false)],
                isReadable: false)
        }
        defer { try? Syscall.close(fd, subject: path) }
        var lines = LineReader(fileDescriptor: fd, maxLineBytes: maxLineBytes)
        return verify(&lines, source: path, maxLineBytes: maxLineBytes, onProgress: onProgress)
    }

    /// Verifies the session at `path` (`-` for standard input), calling `onLine` after each line with the number of
    /// lines read so far.
    @available(*, deprecated, message: "use verify(path:maxLineBytes:onProgress:), whose Progress also counts the bytes read and the total")
    public static func verify(
        path: String, maxLineBytes: Int = SessionFormat.defaultMaxLineBytes, onLine: @escaping (Int) -> Void
    ) -> Result {
        verify(path: path, maxLineBytes: maxLineBytes) { progress in onLine(progress.lines) }
    }

    /// Verifies a session held in memory; `source` names it.
    public static func verify(
        bytes: [UInt8], source: String = "<memory>", maxLineBytes: Int = SessionFormat.defaultMaxLineBytes
    ) -> Result {
        var lines = LineReader(bytes: bytes, maxLineBytes: maxLineBytes)
        return verify(&lines, source: source, maxLineBytes: maxLineBytes)
    }

    private static func verify(
        _ lines: inout LineReader, source: String, maxLineBytes: Int, onProgress: ((Progress) -> Void)? = nil
    ) -> Result {
        var result = Result(lines: 0, actions: 0, problems: [], isReadable: true)
        var decoder = SessionLineDecoder(source: source, maxLineBytes: maxLineBytes)
        func report(_ line: Int, _ message: String, warning: Bool = false) {
            result.problems.append(Problem(line: line, message: message, isWarning: warning))
        }
        while true {
            let next: LineReader.Line?
            do {
                next = try lines.next()
            } catch {
                let failure = SessionReadError(source: source, line: result.lines + 1, problem: .io(error))
                report(failure.line, failure.reason)
                result.isReadable = result.lines > 0
                return result
            }
            guard let line = next else { break }
            result.lines = line.number
            onProgress?(Progress(lines: line.number, bytesRead: lines.bytesRead, totalBytes: lines.bytesAtStart))
            let endCameBefore = decoder.hasSeenEnd
            let decoded: (json: JSONValue, event: SessionEvent)
            do {
                switch line.content {
                case .tooLong:
                    try decoder.decodeOverlongLine()
                case .bytes(let bytes):
                    decoded = try decoder.decodeWithJSON(line: bytes, isTerminated: line.isTerminated)
                }
            } catch {
                report(error.line, error.reason)
                if case .lineTooLong = error.problem { return result }
                if result.problems.count(where: { !$0.isWarning }) == maxErrors {
                    report(0, "stopped after \(maxErrors) errors: the lines after line \(line.number) were not read")
                    return result
                }
                continue
            }
            // The schema describes lines; the decoder rules them: the schema only warns about lines the reader reads.
            for violation in SessionSchema.validator.validate(decoded.json) {
                report(line.number, "schema: \(violation)", warning: true)
            }
            if !line.isTerminated { report(line.number, "the last line has no newline at the end", warning: true) }
            if endCameBefore { report(line.number, "a line after the 'end' line", warning: true) }
            if case .action = decoded.event { result.actions += 1 }
        }
        do {
            try decoder.finish()
        } catch {
            report(error.line, error.reason)
        }
        if result.lines > 0 && !decoder.hasSeenEnd {
            report(0, "no 'end' line: the recording was cut off or is still running", warning: true)
        }
        return result
    }
}
