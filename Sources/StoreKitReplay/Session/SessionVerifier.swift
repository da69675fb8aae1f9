import StoreKitCore

/// Checks a session file against the format and lists every problem, not only the first: schema violations,
/// sequence numbers out of order or missing without a gap line, patches that do not apply, a cut-off last line,
/// a missing `end` line.
public enum SessionVerifier {
    /// One problem, at a line.
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        /// The 1-based line, or 0 for the whole file.
        public var line: Int
        /// What is wrong.
        public var message: String
        /// Whether the file is still usable (a warning) or broken (an error).
        public var isWarning: Bool

        /// `line 7: message`.
        public var description: String { line > 0 ? "line \(line): \(message)" : message }
    }

    /// What verifying one file found.
    public struct Result: Sendable, Equatable {
        /// Lines read.
        public var lines: Int
        /// Action lines.
        public var actions: Int
        /// Every problem found.
        public var problems: [Problem]

        /// True when there is no error (warnings allowed).
        public var isValid: Bool { !problems.contains { !$0.isWarning } }
    }

    /// Verifies the session at `path` (`-` for standard input).
    public static func verify(path: String, maxLineBytes: Int = SessionFormat.defaultMaxLineBytes) -> Result {
        var result = Result(lines: 0, actions: 0, problems: [])
        let fd: Int32
        if path == "-" {
            fd = 0
        } else {
            do {
                fd = try Syscall.open(path, O_RDONLY)
            } catch {
                result.problems.append(Problem(line: 0, message: "cannot read: \(error)", isWarning: false))
                return result
            }
        }
        defer { if fd != 0 { try? Syscall.close(fd, subject: path) } }
        var lines = LineReader(fileDescriptor: fd, maxLineBytes: maxLineBytes)
        var covered = 0
        var sawHeader = false
        var sawEnd = false
        var previousState: JSONValue?
        func problem(_ line: Int, _ message: String, warning: Bool = false) {
            result.problems.append(Problem(line: line, message: message, isWarning: warning))
        }
        while true {
            let next: LineReader.Line?
            do {
                next = try lines.next()
            } catch {
                problem(result.lines + 1, "cannot read: \(error)")
                break
            }
            guard let line = next else { break }
            result.lines = line.number
            guard case .bytes(let bytes) = line.content else {
                if case .tooLong(let count) = line.content { problem(line.number, "line is \(count) bytes, over the \(maxLineBytes)-byte limit") }
                continue
            }
            let value: JSONValue
            do {
                value = try JSONValue(parsing: bytes)
            } catch {
                problem(line.number, line.isTerminated ? "not valid JSON: \(error)" : "the last line is cut off: \(error)")
                previousState = nil
                continue
            }
            for violation in SessionSchema.validator.validate(value) {
                problem(line.number, "schema: \(violation)")
            }
            guard let event = try? SessionEvent(jsonValue: value) else { continue }
            if !line.isTerminated { problem(line.number, "the last line has no newline at the end", warning: true) }
            if sawEnd { problem(line.number, "a line after the 'end' line", warning: true) }
            switch event {
            case .header(let header):
                if sawHeader { problem(line.number, "a second 'session' header") }
                if line.number != 1 { problem(line.number, "the header is not the first line") }
                sawHeader = true
                previousState = header.initialState
            case .action(var action):
                if !sawHeader && line.number == 1 { problem(1, "the first line is not a 'session' header") }
                result.actions += 1
                if action.sequence <= covered {
                    problem(line.number, "seq \(action.sequence) does not increase (the previous line covered up to \(covered))")
                } else if action.sequence > covered + 1 {
                    problem(line.number, "seq jumps from \(covered) to \(action.sequence) with no gap line for \(covered + 1)...\(action.sequence - 1)")
                }
                covered = max(covered, action.sequence)
                if let patch = action.patch {
                    if let base = previousState, let state = try? patch.apply(to: base) {
                        action.state = state
                    } else {
                        problem(line.number, "the patch does not apply to the previous state")
                    }
                }
                previousState = action.patch == nil || previousState != nil ? action.state : nil
            case .gap(let gap):
                if gap.firstSequence <= covered {
                    problem(line.number, "gap \(gap.firstSequence)...\(gap.lastSequence) overlaps sequence numbers already covered (up to \(covered))")
                } else if gap.firstSequence > covered + 1 {
                    problem(line.number, "seq jumps from \(covered) to \(gap.firstSequence) with no gap line for the numbers between")
                }
                covered = max(covered, gap.lastSequence)
                previousState = nil
            case .end:
                sawEnd = true
            }
        }
        if result.lines == 0 { problem(0, "the file is empty") }
        if result.lines > 0 && !sawEnd { problem(0, "no 'end' line: the recording was cut off or is still running", warning: true) }
        return result
    }
}
