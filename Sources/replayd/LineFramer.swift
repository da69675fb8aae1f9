import StoreKitCore

/// Splits the bytes a client sends into `\n`-terminated lines, holding at most one line and one read.
///
/// A line longer than the limit is never held: its bytes are dropped as they arrive and it is reported once its
/// newline comes, with its full length.
struct LineFramer {
    /// One framed line, reported in order.
    enum Line {
        /// A complete line, without its `\n`.
        case complete(UnsafeBufferPointer<UInt8>)
        /// A line over the limit, and how long it was.
        case tooLong(byteCount: Int)
    }

    /// The longest line accepted, without its `\n`.
    let maxLineBytes: Int
    /// How many bytes one read asks for.
    let chunkSize: Int
    /// The number of the last line reported, from 1.
    private(set) var lineNumber = 0
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    /// Bytes of an over-long line dropped so far, while one is being skipped.
    private var skipped: Int?

    /// Creates a framer.
    init(maxLineBytes: Int, chunkSize: Int = 1 << 16) {
        self.maxLineBytes = maxLineBytes
        self.chunkSize = chunkSize
        buffer = [UInt8](repeating: 0, count: chunkSize)
    }

    /// Bytes received after the last complete line: a line cut off if the stream ends now.
    var pendingByteCount: Int { (skipped ?? 0) + end - start }

    /// Reads once from `fd` and reports every line the read completed, with its number.
    /// - Returns: The number of bytes read (0 at end of stream), or `nil` when nothing was ready.
    mutating func read(from fd: Int32, _ report: (Line, Int) -> Void) throws(SystemError) -> Int? {
        makeRoom()
        let available = buffer.count - end
        let result = buffer.withUnsafeMutableBytes { raw -> Result<Int?, SystemError> in
            do {
                return .success(try Syscall.receive(fd, into: raw.baseAddress! + end, count: available))
            } catch let error as SystemError {
                return .failure(error)
            } catch {
                preconditionFailure("recv throws only SystemError")
            }
        }
        guard let count = try result.get(), count > 0 else { return try result.get() }
        let scanFrom = end
        end += count
        frame(scanningFrom: scanFrom, report)
        return count
    }

    private mutating func frame(scanningFrom scanFrom: Int, _ report: (Line, Int) -> Void) {
        buffer.withUnsafeBufferPointer { bytes in
            var cursor = scanFrom
            while cursor < end, let newline = memchr(bytes.baseAddress! + cursor, 0x0A, end - cursor) {
                let position = bytes.baseAddress!.distance(to: newline.assumingMemoryBound(to: UInt8.self))
                lineNumber += 1
                if let dropped = skipped {
                    report(.tooLong(byteCount: dropped + position - start), lineNumber)
                    skipped = nil
                } else if position - start > maxLineBytes {
                    report(.tooLong(byteCount: position - start), lineNumber)
                } else {
                    report(.complete(UnsafeBufferPointer(rebasing: bytes[start..<position])), lineNumber)
                }
                start = position + 1
                cursor = start
            }
        }
        if end - start > maxLineBytes {
            skipped = (skipped ?? 0) + end - start
            start = end
        }
        if start == end {
            start = 0
            end = 0
        }
    }

    /// Makes room for one more read: moves the held partial line to the front, growing the buffer only while a
    /// line within the limit needs it.
    private mutating func makeRoom() {
        if start == end && buffer.count > 4 * chunkSize {
            buffer = [UInt8](repeating: 0, count: chunkSize)
        }
        guard buffer.count - end < chunkSize else { return }
        if start > 0 {
            buffer.withUnsafeMutableBytes { raw in
                _ = memmove(raw.baseAddress!, raw.baseAddress! + start, end - start)
            }
            end -= start
            start = 0
        }
        if buffer.count - end < chunkSize {
            buffer += [UInt8](repeating: 0, count: max(chunkSize, buffer.count))
        }
    }
}
