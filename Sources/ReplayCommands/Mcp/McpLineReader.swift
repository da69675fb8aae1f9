/// The stdio transport's framing: messages are lines of UTF-8 JSON ending in `\n`. A line longer than ``limit``
/// is refused (its bytes are skipped up to the next line break) so that a runaway client cannot make the server
/// hold it whole.
struct McpLineReader {
    /// What the reader found next.
    enum Line: Equatable {
        /// A line, without its `\n` (and without a `\r` before it).
        case line([UInt8])
        /// A line longer than the limit, skipped; its length so far.
        case tooLong(Int)
    }

    /// The longest line accepted, in bytes.
    let limit: Int
    private let readChunk: () -> [UInt8]
    private var buffer: [UInt8] = []
    private var ended = false

    /// A reader of the chunks `readChunk` returns (an empty chunk is the end of the input).
    init(limit: Int, readChunk: @escaping () -> [UInt8]) {
        self.limit = limit
        self.readChunk = readChunk
    }

    /// The next line, or `nil` at the end of the input (a last line without `\n` counts as a line).
    mutating func next() -> Line? {
        var skipped = 0
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                var line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                if skipped > 0 || line.count > limit { return .tooLong(skipped + line.count) }
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                return .line(line)
            }
            if buffer.count > limit {
                skipped += buffer.count
                buffer.removeAll(keepingCapacity: true)
            }
            if ended {
                guard skipped == 0 else { return .tooLong(skipped + buffer.count) }
                guard !buffer.isEmpty else { return nil }
                defer { buffer.removeAll() }
                return .line(buffer)
            }
            let chunk = readChunk()
            if chunk.isEmpty { ended = true } else { buffer += chunk }
        }
    }
}
