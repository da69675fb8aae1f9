import StoreKitCore
import StoreKitReplay

/// The lines checked in one read, for the session file's one write: spans of the framer's buffer, not copies,
/// joined while they lie side by side, as they do unless a line between them was turned away; and the few lines
/// the daemon writes itself (a gap for the sequence numbers a client skipped), held here until the write.
struct AcceptedLines {
    /// One run of lines.
    private enum Piece {
        /// Lines in the framer's buffer.
        case borrowed(UnsafeBufferPointer<UInt8>)
        /// Lines in ``owned``, at these offsets.
        case owned(Range<Int>)
    }

    private var pieces: [Piece] = []
    /// The bytes of the lines the daemon wrote itself, kept from read to read.
    private var owned: [UInt8] = []

    /// Whether no line was accepted.
    var isEmpty: Bool { pieces.isEmpty }

    /// Adds a line, `\n` included; its bytes must stay where they are until the lines are written.
    mutating func append(_ line: UnsafeBufferPointer<UInt8>) {
        if case .borrowed(let last) = pieces.last, let lastStart = last.baseAddress,
            lastStart + last.count == line.baseAddress
        {
            pieces[pieces.count - 1] = .borrowed(UnsafeBufferPointer(start: lastStart, count: last.count + line.count))
        } else {
            pieces.append(.borrowed(line))
        }
    }

    /// Adds a line the daemon made, `\n` included, copying it into storage that lasts until the lines are written.
    mutating func append(ownedLine line: [UInt8]) {
        let start = owned.count
        owned.append(contentsOf: line)
        if case .owned(let last) = pieces.last, last.upperBound == start {
            pieces[pieces.count - 1] = .owned(last.lowerBound..<owned.count)
        } else {
            pieces.append(.owned(start..<owned.count))
        }
    }

    /// Forgets the lines, keeping the room they took.
    mutating func removeAll() {
        pieces.removeAll(keepingCapacity: true)
        owned.removeAll(keepingCapacity: true)
    }

    /// Calls `body` with every line in order as one run of bytes: the framer's own when they lie side by side,
    /// else a copy.
    func withContiguousBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        if pieces.count == 1, case .borrowed(let span) = pieces[0] { return body(UnsafeRawBufferPointer(span)) }
        var joined: [UInt8] = []
        for piece in pieces {
            switch piece {
            case .borrowed(let span): joined.append(contentsOf: span)
            case .owned(let range): joined.append(contentsOf: owned[range])
            }
        }
        return joined.withUnsafeBytes(body)
    }
}
