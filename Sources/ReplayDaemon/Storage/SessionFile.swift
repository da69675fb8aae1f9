import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import StoreKitSystem

/// One session's NDJSON file in the session directory, open for appending, with what the daemon knows of it.
final class SessionFile {
    /// Why a session file could not be opened for a client.
    struct OpenError: Error, CustomStringConvertible {
        var description: String
    }

    /// The file's name inside the session directory.
    let name: String
    /// The file's full path.
    let path: String
    /// What may follow the lines stored: the session's sequence, its end, and the state a patch applies to.
    /// Changed for every line, by the one worker that holds the session, never while it is already being changed:
    /// the run-time exclusivity check is left out.
    @exclusivity(unchecked) private(set) var order: SessionLineOrder
    /// The highest action or gap sequence number stored.
    var lastSequence: Int { order.covered }
    /// Actions the gaps stored since the daemon opened the file say were dropped.
    private(set) var dropped = 0
    /// The time of the last action stored, in seconds since the session started.
    private(set) var lastTime = 0.0
    /// The time of the last action accepted in the current read, until ``readWillEnd()`` makes it ``lastTime``.
    private var lastActionTime: SessionLineValidator.Time?
    /// True once an `end` line is stored.
    var hasEnded: Bool { order.hasEnded }
    /// True when the file continued an existing one (a reconnect).
    private(set) var isContinuation: Bool
    /// True when a continued file of format 2 or later was read from its start (``StoredEffectRuns``), as the
    /// daemon did not know where it stood (``LeftSessions``).
    private(set) var wasReadAgain = false
    /// The session's format version.
    private var formatVersion: Int
    private var fd: Int32
    /// The bytes of complete lines in the file: where a failed write is cut back to.
    private var size = 0

    private init(name: String, path: String, fd: Int32, order: SessionLineOrder, isContinuation: Bool, formatVersion: Int) {
        self.name = name
        self.path = path
        self.fd = fd
        self.order = order
        self.isContinuation = isContinuation
        self.formatVersion = formatVersion
    }

    deinit {
        if fd >= 0 { try? Syscall.close(fd, subject: path) }
    }

    /// Creates the session's file with its header line, or reopens it when the session continues.
    ///
    /// The file is opened without following a symbolic link and must be a regular file (``PrivateFile``). A file
    /// that exists is continued only when its header names the same store id and session id (``StoredHeader``);
    /// an empty one (the daemon stopped between creating it and writing its header) gets the header.
    /// - Parameters:
    ///   - header: The header, whose initial state is the base of a new session's first patch.
    ///   - headerLine: The header as received, `\n` included; written only to a new file.
    ///   - maxLineBytes: The longest line the daemon accepts, which bounds what the tail read looks at.
    ///   - left: Where the session stood when its last client left, if the daemon kept it: used instead of reading
    ///     the stored file when the file is unchanged since.
    /// - Throws: ``OpenError`` when the stored session has ended, is another session, or its first or last line is
    ///   unreadable; ``PrivateFile/OpenError``; ``SystemError``.
    static func open(
        directory: String, name: String, header: SessionHeader, headerLine: UnsafeRawBufferPointer, maxLineBytes: Int,
        left: LeftSessions.Standing? = nil
    ) throws -> SessionFile {
        let path = directory + "/" + name
        do {
            let fd = try PrivateFile.open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND)
            let file = SessionFile(
                name: name, path: path, fd: fd, order: SessionLineOrder(startingFrom: header.initialState, formatVersion: header.formatVersion),
                isContinuation: false, formatVersion: header.formatVersion)
            try file.writeHeader(headerLine)
            return file
        } catch PrivateFile.OpenError.system(let error) where error.errno == EEXIST {
            let fd = try PrivateFile.open(path, O_RDWR | O_APPEND)
            let file = SessionFile(
                name: name, path: path, fd: fd, order: SessionLineOrder(continuingAfter: 0, formatVersion: header.formatVersion),
                isContinuation: true, formatVersion: header.formatVersion)
            try file.resume(header, headerLine: headerLine, maxLineBytes: maxLineBytes, left: left)
            return file
        }
    }

    /// Continues the stored file after checking its header, or writes the header to an empty one.
    private func resume(
        _ header: SessionHeader, headerLine: UnsafeRawBufferPointer, maxLineBytes: Int, left: LeftSessions.Standing?
    ) throws {
        let status = try Syscall.status(of: fd, subject: path)
        guard status.size > 0 else {
            order = SessionLineOrder(startingFrom: header.initialState, formatVersion: header.formatVersion)
            isContinuation = false
            try writeHeader(headerLine)
            return
        }
        let stored = try StoredHeader.check(fd: fd, path: path, name: name, continuing: header)
        formatVersion = stored.formatVersion
        try resumeFromTail(maxLineBytes: maxLineBytes, formatVersion: stored.formatVersion)
        if stored.formatVersion >= 2 {
            if let left, left.file == status {
                order = left.order
                lastTime = left.lastTime
            } else {
                let runs = try StoredEffectRuns(
                    path: path, name: name, formatVersion: stored.formatVersion, maxLineBytes: maxLineBytes)
                order = runs.order
                lastTime = runs.lastTime
                wasReadAgain = true
            }
        }
        size = try Syscall.status(of: fd, subject: path).size
    }

    /// Where the session stands, for its client's reconnect, once the file is closed as it is now; `nil` for a
    /// session of format 1, whose reconnect reads only the file's tail, or when the file cannot be looked at.
    func standing() -> LeftSessions.Standing? {
        guard formatVersion >= 2, let status = try? Syscall.status(path) else { return nil }
        return LeftSessions.Standing(order: order.continuation, lastTime: lastTime, file: status)
    }

    /// Writes a new file's header; when that fails, removes the file, which would be unreadable without it.
    private func writeHeader(_ line: UnsafeRawBufferPointer) throws(SystemError) {
        do {
            try append(line)
        } catch {
            try? Syscall.unlink(path)
            throw error
        }
    }

    /// Appends complete lines in one write. When the write fails part way (a full disk), the file is cut back to
    /// its last complete line, so a retry of the same lines cannot leave half a line or a duplicate behind.
    func append(_ lines: UnsafeRawBufferPointer) throws(SystemError) {
        do {
            try Syscall.writeAll(fd, lines, subject: path)
            size += lines.count
        } catch {
            try? Syscall.truncate(fd, to: size, subject: path)
            throw error
        }
    }

    /// Takes a valid line into the session when it may follow the lines stored (see ``SessionLineOrder``), noting
    /// what it says to answer a reconnect and to write a closing `end`.
    /// - Returns: ``SessionLineOrder/Verdict/accepted(missing:)`` when the line is accepted, to be stored next after
    ///   a gap for the numbers it skipped, if any (counted as dropped here); else why it cannot follow.
    func accept(_ line: SessionLineValidator.Checked) -> SessionLineOrder.Verdict {
        let verdict = order.accept(line)
        guard case .accepted(let missing) = verdict else { return verdict }
        dropped += missing?.count ?? 0
        switch line {
        case .action(let action): lastActionTime = action.time
        case .gap(let gap): dropped += gap.count
        case .header, .end, .effectRun, .unnumbered: break
        }
        return verdict
    }

    /// Copies what the session keeps of the lines accepted out of the read buffer, before it is reused, and reads
    /// the time of the last action accepted.
    func readWillEnd() {
        order.copyBorrowedState()
        if let time = lastActionTime {
            lastTime = time.seconds
            lastActionTime = nil
        }
    }

    /// Flushes the file to disk and closes it.
    func close() throws(SystemError) {
        guard fd >= 0 else { return }
        defer { fd = -1 }
        try Syscall.syncAndClose(fd, subject: path)
    }

    /// Reads the stored tail: the last sequence number, and an `end` the daemon wrote when the client vanished,
    /// which is removed because the session goes on. A tail of effect lines (format 2) is left to
    /// ``StoredEffectRuns``, which reads the whole session to find where its open runs stand.
    private func resumeFromTail(maxLineBytes: Int, formatVersion: Int) throws {
        let tail = try SessionFileTail(fd: fd, subject: path, maxLineBytes: maxLineBytes)
        for line in try tail.lastLines(2) {
            let event: SessionEvent
            do {
                event = try SessionEvent(jsonValue: JSONValue(parsing: line.bytes))
            } catch {
                throw OpenError(description: "the stored session \(name) ends with an unreadable line: \(error)")
            }
            switch event {
            case .end(let end) where end.reason == .disconnected:
                try Syscall.truncate(fd, to: line.offset, subject: path)
                dropped = end.dropped
                continue
            case .end:
                throw OpenError(description: "the stored session \(name) has already ended")
            case .header:
                return
            case .action(let action):
                order = SessionLineOrder(continuingAfter: action.sequence, formatVersion: formatVersion)
                lastTime = action.time
                return
            case .gap(let gap):
                order = SessionLineOrder(continuingAfter: gap.lastSequence, formatVersion: formatVersion)
                return
            case .call, .effectEnd, .note:
                return
            }
        }
    }
}
