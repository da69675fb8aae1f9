import StoreKitCore
import StoreKitReplay
import StoreKitSystem

/// Reads the last complete lines of a file backwards, and repairs a file whose last line was cut off.
struct SessionFileTail {
    /// A line and where it starts in the file.
    struct Line {
        /// Its offset from the start of the file.
        var offset: Int
        /// Its bytes, without the `\n`.
        var bytes: [UInt8]
    }

    private let fd: Int32
    private let subject: String
    private let maxLineBytes: Int
    /// The file's size.
    let size: Int

    /// Creates a tail reader over an open file.
    init(fd: Int32, subject: String, maxLineBytes: Int) throws(SystemError) {
        self.fd = fd
        self.subject = subject
        self.maxLineBytes = maxLineBytes
        size = try Syscall.status(of: fd, subject: subject).size
    }

    /// The offset just after the last `\n` (0 when there is none): where a cut-off last line begins.
    func endOfLastCompleteLine() throws(SystemError) -> Int {
        try previousNewline(before: size).map { $0 + 1 } ?? 0
    }

    /// Up to `count` complete lines from the end, last first. A file must end with `\n` (see
    /// ``endOfLastCompleteLine()``).
    func lastLines(_ count: Int) throws(SystemError) -> [Line] {
        var lines: [Line] = []
        var lineEnd = size - 1
        while lines.count < count, lineEnd > 0 {
            let start = try previousNewline(before: lineEnd).map { $0 + 1 } ?? 0
            lines.append(Line(offset: start, bytes: try Syscall.read(fd, at: start, count: lineEnd - start, subject: subject)))
            lineEnd = start - 1
        }
        return lines
    }

    /// The offset of the last `\n` before `offset`, looking back at most one line's limit.
    private func previousNewline(before offset: Int) throws(SystemError) -> Int? {
        let chunk = 1 << 16
        var windowEnd = offset
        let lowest = max(0, offset - maxLineBytes - 1)
        while windowEnd > lowest {
            let windowStart = max(lowest, windowEnd - chunk)
            let bytes = try Syscall.read(fd, at: windowStart, count: windowEnd - windowStart, subject: subject)
            if let index = bytes.lastIndex(of: 0x0A) { return windowStart + index }
            windowEnd = windowStart
        }
        return nil
    }
}
