import StoreKitCore
import StoreKitSystem

/// Reads `\n`-terminated lines from a file descriptor in fixed-size chunks, holding one line at a time.
///
/// Each byte is read and searched for `\n` once, however many reads a line takes to arrive, so reading is linear in
/// the input. Memory stays bounded by the chunk size plus the longest line it keeps. A line longer than
/// `maxLineBytes` is never held, nor read to its end: as soon as it passes the limit it is reported as
/// ``Line/Content/tooLong`` and the reader stops there, since the rest of the line may never come to an end
/// (`/dev/zero` on standard input holds no `\n`).
///
/// A regular file is read as it was when the reader was made: as far as its size then, however much a writer adds
/// meanwhile, so a file that keeps growing cannot keep a reader going. A last line that was still being written then
/// (cut off at that size, and gone on since) is left out as not yet written; one that stayed cut off is read as the
/// cut-off line it is. Only a follower (`log --follow`) reads on as the file grows.
struct LineReader {
    /// One line as read.
    struct Line {
        /// What the line holds.
        enum Content {
            /// The line's bytes, without the `\n`.
            case bytes([UInt8])
            /// The line passed the limit; its bytes were not kept, and the reader read no further.
            case tooLong
        }

        /// The 1-based line number.
        var number: Int
        /// The line's content.
        var content: Content
        /// False for a last line that ended without `\n` (a cut-off write).
        var isTerminated: Bool
    }

    private let fd: Int32
    /// The longest line kept, in bytes.
    let maxLineBytes: Int
    /// Called at the end of the file to wait for more to be written (`log --follow`); `nil` ends the input there.
    private let waitForMore: (() -> Void)?
    private var chunk: [UInt8]
    private var chunkStart = 0
    private var chunkEnd = 0
    private var lineNumber = 0
    /// True after the end of the input or an over-long line: nothing more is read.
    private var finished = false
    /// How many more bytes may be read before the input counts as ended; `nil` reads until `read` says it has ended
    /// (a pipe, a terminal, a followed file).
    private var bytesLeft: UInt64?
    /// The offset at which a regular file ended when the reader was made; `nil` for other input and when following.
    private var endOffset: Int64?
    /// Why the file's size could not be taken when the reader was made, thrown at the first read.
    private var failureAtStart: SystemError?
    /// How many bytes the lines returned so far took, their `\n`s included.
    private(set) var bytesRead: Int64 = 0
    /// How many bytes a regular file held from where the reader began when it was made: all it will read (see the
    /// type's notes); `nil` for other input and when following.
    private(set) var bytesAtStart: Int64?

    /// Creates a reader over `fd`, which it does not own or close, from its current offset.
    /// - Parameters:
    ///   - waitForMore: When set, the reader calls it at the end of the file and reads again, so that it follows a
    ///     file being written and never ends by itself. When not, a regular file ends where it ended now.
    init(fileDescriptor fd: Int32, maxLineBytes: Int, chunkSize: Int = 1 << 16, waitForMore: (() -> Void)? = nil) {
        self.fd = fd
        self.maxLineBytes = maxLineBytes
        self.waitForMore = waitForMore
        self.chunk = [UInt8](repeating: 0, count: chunkSize)
        guard waitForMore == nil else { return }
        do {
            let status = try Syscall.status(of: fd)
            guard status.isRegularFile else { return }
            let start = try Syscall.offset(of: fd)
            let end = max(Int64(status.size), start)
            endOffset = end
            bytesLeft = UInt64(end - start)
            bytesAtStart = end - start
        } catch {
            failureAtStart = error
        }
    }

    /// Creates a reader over bytes already in memory.
    init(bytes: [UInt8], maxLineBytes: Int) {
        self.fd = -1
        self.maxLineBytes = maxLineBytes
        self.waitForMore = nil
        self.chunk = bytes
        self.chunkEnd = bytes.count
        bytesAtStart = Int64(bytes.count)
    }

    /// The next line, or `nil` at the end of the input and after a line that was too long.
    mutating func next() throws(SystemError) -> Line? {
        guard !finished else { return nil }
        var pending: [UInt8] = []
        while true {
            if chunkStart == chunkEnd, try !refill() {
                finished = true
                if pending.isEmpty { return nil }
                if try lineWentOnPastTheEnd() { return nil }
                lineNumber += 1
                bytesRead += Int64(pending.count)
                return Line(number: lineNumber, content: .bytes(pending), isTerminated: false)
            }
            let (newline, sliceEnd) = chunk.withUnsafeBufferPointer { buffer -> (Bool, Int) in
                let base = buffer.baseAddress! + chunkStart
                let found = memchr(base, 0x0A, chunkEnd - chunkStart)
                guard let found else { return (false, chunkEnd) }
                return (true, chunkStart + (UnsafeRawPointer(found) - UnsafeRawPointer(base)))
            }
            if pending.count + sliceEnd - chunkStart > maxLineBytes {
                finished = true
                lineNumber += 1
                return Line(number: lineNumber, content: .tooLong, isTerminated: newline)
            }
            pending.append(contentsOf: chunk[chunkStart..<sliceEnd])
            chunkStart = newline ? sliceEnd + 1 : sliceEnd
            if newline {
                lineNumber += 1
                bytesRead += Int64(pending.count) + 1
                return Line(number: lineNumber, content: .bytes(pending), isTerminated: true)
            }
        }
    }

    /// Whether the regular file has grown past where it ended when the reader was made: its last line, cut off there,
    /// was still being written.
    private func lineWentOnPastTheEnd() throws(SystemError) -> Bool {
        guard let endOffset else { return false }
        return Int64(try Syscall.status(of: fd).size) > endOffset
    }

    /// Reads the next chunk; false at the end of the input. Following a file, it waits at the end instead.
    private mutating func refill() throws(SystemError) -> Bool {
        if let failureAtStart { throw failureAtStart }
        guard fd >= 0, bytesLeft != 0 else { return false }
        while true {
            var count = try Syscall.read(fd, into: &chunk)
            if let left = bytesLeft {
                count = Int(min(UInt64(count), left))
                bytesLeft = left - UInt64(count)
            }
            chunkStart = 0
            chunkEnd = count
            if count > 0 { return true }
            guard let waitForMore else { return false }
            waitForMore()
        }
    }
}
