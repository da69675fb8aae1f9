import StoreKitCore
import StoreKitReplay

/// The lines checked in one read, for the session file's one write: spans of the framer's buffer, not copies,
/// joined while they lie side by side, as they do unless a line between them was turned away.
struct AcceptedLines {
    private var spans: [UnsafeBufferPointer<UInt8>] = []

    /// Whether no line was accepted.
    var isEmpty: Bool { spans.isEmpty }

    /// Adds a line, `\n` included; its bytes must stay where they are until the lines are written.
    mutating func append(_ line: UnsafeBufferPointer<UInt8>) {
        if let last = spans.last, let lastStart = last.baseAddress, lastStart + last.count == line.baseAddress {
            spans[spans.count - 1] = UnsafeBufferPointer(start: lastStart, count: last.count + line.count)
        } else {
            spans.append(line)
        }
    }

    /// Forgets the lines, keeping the room they took.
    mutating func removeAll() {
        spans.removeAll(keepingCapacity: true)
    }

    /// Calls `body` with every line in order as one run of bytes: the framer's own when they lie side by side,
    /// else a copy.
    func withContiguousBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        if spans.count == 1 { return body(UnsafeRawBufferPointer(spans[0])) }
        return spans.flatMap { $0 }.withUnsafeBytes(body)
    }
}
