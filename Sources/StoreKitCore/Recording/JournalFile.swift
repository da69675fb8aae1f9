import StoreKitSystem

/// One segment of a session's journal on disk (``SessionJournal``): the socket path and header line of the
/// session, then held lines (``UnconfirmedLines/Entry``) in order, each with what a resend needs to know about it.
/// Each segment stands alone, so one can be sent, or deleted, without the others.
///
/// The file, mode 0600, starts with the line `storekit-replay journal 1`, then holds records: a fixed head of 37
/// bytes (a kind byte, three little-endian `Int64` and three little-endian `UInt32` lengths) followed by three byte
/// fields of those lengths. The first record holds the socket path and the header; each one after it an entry. A
/// record cut short (a crash part way through a write) ends the journal there. While open, the file holds an
/// exclusive `flock`, so another transport never takes a journal whose app is still running.
package final class JournalFile {
    /// The file's path.
    package let path: String
    /// The socket path of the daemon the session is for.
    package let socketPath: String
    /// The session's header line, `\n` included.
    package let header: [UInt8]
    /// The bytes the file holds, those not yet written included.
    package private(set) var size: Int
    /// The sequence numbers of the last entry, and whether it is an effect line or a note; `nil` while there is none.
    package private(set) var last: (sequences: ClosedRange<Int>, isUnnumbered: Bool)?
    private var fd: Int32
    /// Records appended but not yet written.
    private var pending: [UInt8] = []
    /// Where the first entry's record begins.
    private let entriesOffset: Int

    private static let magic = Array("storekit-replay journal 1\n".utf8)
    private static let headBytes = 37
    /// The most bytes appended before they are written.
    private static let pendingBytes = 1 << 20

    private init(path: String, fd: Int32, socketPath: String, header: [UInt8], entriesOffset: Int, size: Int) {
        self.path = path
        self.fd = fd
        self.socketPath = socketPath
        self.header = header
        self.entriesOffset = entriesOffset
        self.size = size
    }

    deinit {
        if fd >= 0 { try? Syscall.close(fd, subject: path) }
    }

    /// Creates a new journal file at `path` (mode 0600), locked, holding the socket path and header.
    /// - Throws: ``SystemError`` when the file cannot be created or written.
    package static func create(path: String, socketPath: String, header: [UInt8]) throws -> JournalFile {
        let fd = try Syscall.open(path, O_RDWR | O_CREAT | O_EXCL, mode: 0o600)
        do {
            // A transport sending leftover journals opened it first; it finds no header and lets go, but this
            // journal must not be written unlocked.
            guard try Syscall.tryLockExclusively(fd, subject: path) else {
                throw SystemError(call: "flock", subject: path, errno: EWOULDBLOCK)
            }
            var start = magic
            appendRecord(kind: 0, numbers: (0, 0, 0), fields: (Array(socketPath.utf8), header, []), to: &start)
            try Syscall.writeAll(fd, start, subject: path)
            return JournalFile(
                path: path, fd: fd, socketPath: socketPath, header: header, entriesOffset: start.count,
                size: start.count)
        } catch {
            try? Syscall.close(fd, subject: path)
            try? Syscall.unlink(path)
            throw error
        }
    }

    /// Opens a journal left behind, when no running transport holds it and it is for `socketPath`.
    /// - Returns: The journal, locked, with its last entry read; `nil` when another process holds it, it is for
    ///   another socket, or it is not a journal this version can read.
    /// - Throws: ``SystemError`` when the file cannot be opened or read.
    package static func openLeftover(path: String, socketPath: String) throws -> JournalFile? {
        let fd = try Syscall.open(path, O_RDWR)
        var keep = false
        defer { if !keep { try? Syscall.close(fd, subject: path) } }
        guard try Syscall.tryLockExclusively(fd, subject: path) else { return nil }
        guard try Syscall.read(fd, at: 0, count: magic.count, subject: path) == magic,
            let first = try readRecord(fd, at: magic.count, path: path), first.kind == 0,
            String(decoding: first.fields.0, as: UTF8.self) == socketPath
        else { return nil }
        let size = try Syscall.status(of: fd, subject: path).size
        let journal = JournalFile(
            path: path, fd: fd, socketPath: socketPath, header: first.fields.1, entriesOffset: first.end, size: size)
        keep = true
        try journal.forEachEntry { entry in journal.last = (entry.sequences, entry.isUnnumbered) }
        return journal
    }

    /// Appends an entry; it is written once ``pendingBytes`` gather, or by ``flush()``.
    /// - Throws: ``SystemError`` when a write fails; the entries not written are then not in the file.
    package func append(_ entry: UnconfirmedLines.Entry) throws {
        let before = pending.count
        switch entry.content {
        case .state:
            Self.appendRecord(kind: 1, entry: entry, fields: (entry.bytes, [], []), to: &pending)
        case .patch(let fullStateLine):
            Self.appendRecord(kind: 2, entry: entry, fields: (entry.bytes, fullStateLine, []), to: &pending)
        case .gap(let gap):
            Self.appendRecord(
                kind: 3, numbers: (gap.firstSequence, gap.lastSequence, gap.message == nil ? 0 : 1),
                fields: (entry.bytes, Array(gap.reason.rawValue.utf8), Array((gap.message ?? "").utf8)), to: &pending)
        case .effect(let cause, let effect):
            Self.appendRecord(
                kind: 4, numbers: (entry.sequences.lowerBound, entry.sequences.upperBound, cause),
                fields: (entry.bytes, Array(effect.utf8), []), to: &pending)
        case .note:
            Self.appendRecord(kind: 5, entry: entry, fields: (entry.bytes, [], []), to: &pending)
        case .keptActions:
            Self.appendRecord(kind: 6, entry: entry, fields: (entry.bytes, [], []), to: &pending)
        }
        size += pending.count - before
        last = (entry.sequences, entry.isUnnumbered)
        if pending.count >= Self.pendingBytes { try flush() }
    }

    /// The bytes a new file for the socket path and header takes before its first entry.
    package static func startBytes(socketPath: String, header: [UInt8]) -> Int {
        magic.count + headBytes + socketPath.utf8.count + header.count
    }

    /// The bytes the entry's record takes.
    package static func recordBytes(_ entry: UnconfirmedLines.Entry) -> Int {
        let fields: Int
        switch entry.content {
        case .state: fields = entry.bytes.count
        case .patch(let fullStateLine): fields = entry.bytes.count + fullStateLine.count
        case .gap(let gap): fields = entry.bytes.count + gap.reason.rawValue.utf8.count + (gap.message?.utf8.count ?? 0)
        case .effect(_, let effect): fields = entry.bytes.count + effect.utf8.count
        case .note, .keptActions: fields = entry.bytes.count
        }
        return headBytes + fields
    }

    /// Writes the entries appended and not yet written.
    /// - Throws: ``SystemError`` when the write fails; those entries are then not in the file.
    package func flush() throws {
        guard !pending.isEmpty else { return }
        defer { pending = [] }
        try Syscall.writeAll(fd, pending, subject: path)
    }

    /// Calls `body` with each entry in order, after writing those pending; a record that cannot be read (cut short
    /// by a crash) ends the entries.
    /// - Throws: What `body` throws, or ``SystemError`` when the file cannot be read.
    package func forEachEntry(_ body: (UnconfirmedLines.Entry) throws -> Void) throws {
        var offset: Int?
        _ = try forEachEntry(from: &offset) { entry in
            try body(entry)
            return true
        }
    }

    /// Calls `body` with each entry from the record at `offset` (the first when `nil`) on, after writing those
    /// pending, until `body` returns false; moves `offset` past the entries it gave. A record that cannot be read
    /// (cut short by a crash) ends the entries.
    /// - Returns: Whether it gave every entry the file holds.
    /// - Throws: What `body` throws, or ``SystemError`` when the file cannot be read.
    package func forEachEntry(from offset: inout Int?, _ body: (UnconfirmedLines.Entry) throws -> Bool) throws -> Bool {
        try flush()
        var next = offset ?? entriesOffset
        defer { offset = next }
        while let record = try Self.readRecord(fd, at: next, path: path), let entry = record.entry {
            next = record.end
            guard try body(entry) else { return false }
        }
        return true
    }

    /// Whether the receiver has every line of the file once it confirmed every sequence number up to `confirmed`:
    /// a last line that is an effect line or a note only once a later number is confirmed, unless nothing later
    /// will come (`endsTheSession`); an empty file always.
    package func isConfirmed(through confirmed: Int, endsTheSession: Bool = false) -> Bool {
        guard let last else { return true }
        return last.sequences.upperBound < confirmed
            || last.sequences.upperBound == confirmed && (!last.isUnnumbered || endsTheSession)
    }

    /// Deletes the file, then closes it: while it exists, it stays locked.
    package func remove() {
        // A journal that cannot be deleted is sent again at the next launch, and the daemon skips what it holds.
        try? Syscall.unlink(path)
        pending = []
        close()
    }

    /// Writes what is pending (when it can) and closes the file, which stays for a later transport to send.
    package func close() {
        guard fd >= 0 else { return }
        // What cannot be written now is lost with the process anyway; the file ends at its last whole record.
        try? flush()
        try? Syscall.close(fd, subject: path)
        fd = -1
    }

    private static func appendRecord(
        kind: UInt8, entry: UnconfirmedLines.Entry, fields: ([UInt8], [UInt8], [UInt8]), to buffer: inout [UInt8]
    ) {
        appendRecord(
            kind: kind, numbers: (entry.sequences.lowerBound, entry.sequences.upperBound, 0), fields: fields,
            to: &buffer)
    }

    private static func appendRecord(
        kind: UInt8, numbers: (Int, Int, Int), fields: ([UInt8], [UInt8], [UInt8]), to buffer: inout [UInt8]
    ) {
        buffer.append(kind)
        for number in [numbers.0, numbers.1, numbers.2] {
            withUnsafeBytes(of: Int64(number).littleEndian) { buffer += $0 }
        }
        for field in [fields.0, fields.1, fields.2] {
            withUnsafeBytes(of: UInt32(field.count).littleEndian) { buffer += $0 }
        }
        buffer += fields.0
        buffer += fields.1
        buffer += fields.2
    }

    /// One record read back.
    private struct Record {
        var kind: UInt8
        var numbers: (Int, Int, Int)
        var fields: ([UInt8], [UInt8], [UInt8])
        /// Where the next record begins.
        var end: Int

        /// The entry the record holds; `nil` for the header record or a kind this version does not know.
        var entry: UnconfirmedLines.Entry? {
            guard numbers.0 <= numbers.1 else { return nil }
            let sequences = numbers.0...numbers.1
            switch kind {
            case 1: return .init(sequences: sequences, bytes: fields.0, content: .state)
            case 2: return .init(sequences: sequences, bytes: fields.0, content: .patch(fullStateLine: fields.1))
            case 3:
                guard let reason = GapEvent.Reason(rawValue: String(decoding: fields.1, as: UTF8.self)) else {
                    return nil
                }
                let message = numbers.2 == 0 ? nil : String(decoding: fields.2, as: UTF8.self)
                let gap = GapEvent(firstSequence: numbers.0, lastSequence: numbers.1, reason: reason, message: message)
                return .init(sequences: sequences, bytes: fields.0, content: .gap(gap))
            case 4:
                let effect = String(decoding: fields.1, as: UTF8.self)
                return .init(sequences: sequences, bytes: fields.0, content: .effect(cause: numbers.2, effect: effect))
            case 5: return .init(sequences: sequences, bytes: fields.0, content: .note)
            case 6: return .init(sequences: sequences, bytes: fields.0, content: .keptActions)
            default: return nil
            }
        }
    }

    /// Reads the record at `offset`; `nil` at the end of the file or where a record was cut short.
    private static func readRecord(_ fd: Int32, at offset: Int, path: String) throws -> Record? {
        let head = try Syscall.read(fd, at: offset, count: headBytes, subject: path)
        guard head.count == headBytes else { return nil }
        func integer<T: FixedWidthInteger>(_ type: T.Type, at index: Int) -> T {
            head[index..<(index + MemoryLayout<T>.size)].reversed().reduce(T.zero) { $0 << 8 | T($1) }
        }
        let numbers = (
            Int(integer(Int64.self, at: 1)), Int(integer(Int64.self, at: 9)), Int(integer(Int64.self, at: 17))
        )
        let lengths = [25, 29, 33].map { Int(integer(UInt32.self, at: $0)) }
        let total = lengths.reduce(0, +)
        let body = try Syscall.read(fd, at: offset + headBytes, count: total, subject: path)
        guard body.count == total else { return nil }
        let fields = (
            Array(body[0..<lengths[0]]), Array(body[lengths[0]..<(lengths[0] + lengths[1])]),
            Array(body[(lengths[0] + lengths[1])...])
        )
        return Record(kind: head[0], numbers: numbers, fields: fields, end: offset + headBytes + total)
    }
}
