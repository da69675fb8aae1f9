import StoreKitCore

/// Reads `\n`-terminated lines from a file descriptor in fixed-size chunks, holding one line at a time.
///
/// Memory stays bounded by the chunk size plus the longest line it keeps, and a line longer than
/// `maxLineBytes` is never held: its bytes are skipped and it is reported as ``Line/Content/tooLong(byteCount:)``.
struct LineReader {
    /// One line as read.
    struct Line {
        /// What the line holds.
        enum Content {
            /// The line's bytes, without the `\n`.
            case bytes([UInt8])
            /// The line exceeded the limit; `byteCount` is its full length without the `\n`.
            case tooLong(byteCount: Int)
        }

        /// The 1-based line number.
        var number: Int
        /// The line's content.
        var content: Content
        /// False for a last line that ended without `\n` (a cut-off write).
        var isTerminated: Bool
    }

    private let fd: Int32
    private let maxLineBytes: Int
    private var chunk: [UInt8]
    private var chunkStart = 0
    private var chunkEnd = 0
    private var lineNumber = 0
    private var atEndOfFile = false

    /// Creates a reader over `fd`, which it does not own or close.
    init(fileDescriptor fd: Int32, maxLineBytes: Int, chunkSize: Int = 1 << 16) {
        self.fd = fd
        self.maxLineBytes = maxLineBytes
        self.chunk = [UInt8](repeating: 0, count: chunkSize)
    }

    /// Creates a reader over bytes already in memory.
    init(bytes: [UInt8], maxLineBytes: Int) {
        self.fd = -1
        self.maxLineBytes = maxLineBytes
        self.chunk = bytes
        self.chunkEnd = bytes.count
    }

    /// The next line, or `nil` at the end of the input.
    mutating func next() throws(SystemError) -> Line? {
        var pending: [UInt8] = []
        var pendingCount = 0
        var overflowed = false
        while true {
            if chunkStart == chunkEnd {
                let refilled = atEndOfFile ? false : try refill()
                if !refilled {
                    atEndOfFile = true
                    if pendingCount == 0 { return nil }
                    lineNumber += 1
                    return Line(
                        number: lineNumber,
                        content: overflowed ? .tooLong(byteCount: pendingCount) : .bytes(pending),
                        isTerminated: false)
                }
            }
            let (newline, sliceEnd) = chunk.withUnsafeBufferPointer { buffer -> (Bool, Int) in
                let base = buffer.baseAddress! + chunkStart
                let found = memchr(base, 0x0A, chunkEnd - chunkStart)
                guard let found else { return (false, chunkEnd) }
                return (true, chunkStart + (UnsafeRawPointer(found) - UnsafeRawPointer(base)))
            }
            let sliceCount = sliceEnd - chunkStart
            pendingCount += sliceCount
            if pendingCount > maxLineBytes {
                overflowed = true
                pending = []
            } else if !overflowed {
                pending.append(contentsOf: chunk[chunkStart..<sliceEnd])
            }
            chunkStart = newline ? sliceEnd + 1 : sliceEnd
            if newline {
                lineNumber += 1
                return Line(
                    number: lineNumber,
                    content: overflowed ? .tooLong(byteCount: pendingCount) : .bytes(pending),
                    isTerminated: true)
            }
        }
    }

    /// Reads the next chunk; false at end of file.
    private mutating func refill() throws(SystemError) -> Bool {
        guard fd >= 0 else { return false }
        let count = try Syscall.read(fd, into: &chunk)
        chunkStart = 0
        chunkEnd = count
        return count > 0
    }
}
