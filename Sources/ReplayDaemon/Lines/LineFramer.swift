import StoreKitCore
import StoreKitReplay
import StoreKitSystem

/// Splits the bytes a client sends into `\n`-terminated lines, holding at most one line and one read.
///
/// The lines a read reports are its own bytes, not copies, and they stay where they are until the next read: the
/// daemon checks them and writes them to the session file from there.
///
/// A line longer than the limit is never held: its bytes are dropped as they arrive and it is reported once its
/// newline comes, with its full length. The buffer is mapped memory, never more than the limit and one read, and it
/// goes back to the system as soon as the framer shrinks it: a client sending long lines leaves nothing resident.
package final class LineFramer {
    /// One framed line, reported in order.
    package enum Line {
        /// A complete line, its `\n` included as the last byte; valid until the next ``LineFramer/read(from:_:)``.
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
    /// Mapped on the first read.
    private var buffer = UnsafeMutableBufferPointer<UInt8>(start: nil, count: 0)
    private var start = 0
    private var end = 0
    /// Bytes of an over-long line dropped so far, while one is being skipped.
    private var skipped: Int?

    /// Creates a framer.
    package init(maxLineBytes: Int, chunkSize: Int = 1 << 18) {
        self.maxLineBytes = maxLineBytes
        self.chunkSize = chunkSize
    }

    deinit {
        if let base = buffer.baseAddress { try? Syscall.unmap(base, length: buffer.count) }
    }

    /// Bytes received after the last complete line: a line cut off if the stream ends now.
    package var pendingByteCount: Int { (skipped ?? 0) + end - start }

    /// Reads once from `fd` and reports every line the read completed, with its number.
    /// - Returns: The number of bytes read (0 at end of stream), or `nil` when nothing was ready.
    /// - Throws: ``SystemError`` naming `recv`, or `mmap` when no memory is left for the line.
    package func read(from fd: Int32, _ report: (Line, Int) -> Void) throws(SystemError) -> Int? {
        try makeRoom()
        let received = try Syscall.receive(fd, into: buffer.baseAddress! + end, count: buffer.count - end)
        guard let count = received, count > 0 else { return received }
        let scanFrom = end
        end += count
        frame(scanningFrom: scanFrom, report)
        return count
    }

    private func frame(scanningFrom scanFrom: Int, _ report: (Line, Int) -> Void) {
        let base = buffer.baseAddress!
        var cursor = scanFrom
        while cursor < end, let newline = memchr(base + cursor, 0x0A, end - cursor) {
            let position = base.distance(to: newline.assumingMemoryBound(to: UInt8.self))
            lineNumber += 1
            if let dropped = skipped {
                report(.tooLong(byteCount: dropped + position - start), lineNumber)
                skipped = nil
            } else if position - start > maxLineBytes {
                report(.tooLong(byteCount: position - start), lineNumber)
            } else {
                report(.complete(UnsafeBufferPointer(start: base + start, count: position + 1 - start)), lineNumber)
            }
            start = position + 1
            cursor = start
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
    /// line within the limit needs it (to the limit and one read at most), and shrinking it back once that line is
    /// done.
    private func makeRoom() throws(SystemError) {
        if start == end && buffer.count > 4 * chunkSize {
            try replaceBuffer(capacity: chunkSize)
        }
        guard buffer.count - end < chunkSize else { return }
        if start > 0 {
            _ = memmove(buffer.baseAddress!, buffer.baseAddress! + start, end - start)
            end -= start
            start = 0
        }
        if buffer.count - end < chunkSize {
            // The held bytes are at most the limit (more are skipped), so the cap leaves room for a read.
            try replaceBuffer(capacity: min(buffer.count + max(chunkSize, buffer.count), maxLineBytes + chunkSize))
        }
    }

    /// Moves the held bytes into a new buffer of `capacity` bytes, and returns the old one's pages to the system.
    private func replaceBuffer(capacity: Int) throws(SystemError) {
        let address = try Syscall.mapPrivate(length: capacity)
        let old = buffer
        buffer = UnsafeMutableBufferPointer(start: address.bindMemory(to: UInt8.self, capacity: capacity), count: capacity)
        if end > start { _ = memcpy(address, old.baseAddress! + start, end - start) }
        end -= start
        start = 0
        if let base = old.baseAddress { try Syscall.unmap(base, length: old.count) }
    }
}
