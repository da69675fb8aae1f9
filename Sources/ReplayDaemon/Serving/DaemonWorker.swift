import Foundation
import StoreKitCore
import StoreKitReplay
import StoreKitSystem

/// One of the daemon's reading threads: a `poll` loop over the clients handed to it, reading at most one chunk
/// from each ready client per turn so no client holds up the others.
///
/// Every complete line read is checked and written to its session file before the next read from that client,
/// so `kill -9` loses no line the daemon had read. A client is served by one worker for its whole connection, so
/// its lines stay in order; the shared set of active sessions keeps one writer per session across workers.
final class DaemonWorker {
    let options: DaemonOptions
    let log: DaemonLog
    /// Shared with the other threads; used only under its lock.
    let shared: Locked<SharedDaemonState>
    private let inbox: WorkerInbox
    /// Told of each session its app ended, for `--on-finish`.
    private let finishHook: FinishHook?
    private var connections: [Int32: ClientConnection] = [:]
    // The two below are changed for every line. Only this worker's thread touches them, and no access to either
    // starts while another is under way, so the run-time exclusivity checks of a class's property (two per line)
    // are left out.
    /// Checks each line read.
    @exclusivity(unchecked) var validator = SessionLineValidator()
    /// The lines checked in the current read, written to the session file in one write.
    @exclusivity(unchecked) var accepted = AcceptedLines()

    /// Creates a worker that serves what `inbox` hands it.
    init(
        options: DaemonOptions, log: DaemonLog, shared: Locked<SharedDaemonState>, inbox: WorkerInbox,
        finishHook: FinishHook?
    ) {
        self.options = options
        self.finishHook = finishHook
        self.log = log
        self.shared = shared
        self.inbox = inbox
    }

    /// Serves until the inbox says stop, then stores what the clients already sent and closes every session.
    func run() {
        while true {
            var descriptors = [pollfd(fd: inbox.wakeReadEnd, events: Int16(POLLIN), revents: 0)]
            let stalled = connections.values.filter { !$0.unwritten.isEmpty }
            for connection in connections.values where connection.unwritten.isEmpty {
                descriptors.append(pollfd(fd: connection.fd, events: Int16(POLLIN), revents: 0))
            }
            // While a write to a session file waits to be retried, wake every 200 ms to retry it; wake too when a
            // connection's time to send its header runs out.
            let retryWait: Int32? = stalled.isEmpty ? nil : 200
            let wait = [retryWait, millisecondsToNextHeaderDeadline()].compactMap { $0 }.min() ?? -1
            do {
                _ = try Syscall.poll(&descriptors, timeoutMilliseconds: wait)
            } catch {
                log.write(.error, "daemon.poll_failed", ["error": .string("\(error)")])
                continue
            }
            if descriptors[0].revents != 0 {
                let delivery = inbox.take()
                for accepted in delivery.connections {
                    connections[accepted.fd] = ClientConnection(accepted, maxLineBytes: options.maxLineBytes)
                }
                if delivery.stopping {
                    shutDown()
                    return
                }
            }
            for connection in stalled { retryWrite(connection) }
            for descriptor in descriptors.dropFirst() where descriptor.revents != 0 {
                if let connection = connections[descriptor.fd] { serve(connection) }
            }
            closeConnectionsWithoutHeader()
        }
    }

    /// How long until the first connection still without a session header runs out of time; `nil` when none waits.
    private func millisecondsToNextHeaderDeadline() -> Int32? {
        guard let deadline = connections.values.lazy.filter({ $0.session == nil }).map(\.headerDeadline).min() else {
            return nil
        }
        let now = MonotonicClock.nanoseconds()
        guard deadline > now else { return 0 }
        // Rounded up, so the deadline has passed when poll returns.
        return Int32(clamping: (deadline - now + 999_999) / 1_000_000)
    }

    /// Closes the connections that have not sent a session header within `--header-timeout`, logging each
    /// (`connection.header_timeout`). A connection that sent its header and then goes quiet is an idle app, and stays.
    private func closeConnectionsWithoutHeader() {
        let now = MonotonicClock.nanoseconds()
        for connection in Array(connections.values) where connection.session == nil && connection.headerDeadline <= now {
            let timeout = String(format: "%g", options.headerTimeout.seconds)
            log.write(.warn, "connection.header_timeout", [
                "connection": .integer(Int64(connection.id)), "pid": .integer(Int64(connection.peer)),
                "timeoutSeconds": .double(options.headerTimeout.seconds),
                "bytesReceived": .integer(Int64(connection.framer.pendingByteCount)),
            ])
            // Closing, not an incomplete line to reject: the part of a header it sent is dropped with it.
            connection.isClosing = true
            close(connection, reason: "no session header within \(timeout) s")
        }
    }

    /// Reads one chunk from the client, and stores the lines it completed before anything else is read.
    private func serve(_ connection: ClientConnection) {
        let received: Int?
        do {
            received = try readAndStore(connection)
        } catch {
            close(connection, reason: "\(error)")
            return
        }
        connection.flushReplies()
        if received == 0 || connection.isClosing {
            close(connection, reason: received == 0 ? "closed by the client" : "refused")
        }
    }

    /// Reads one chunk from the client, checks the lines it completed, and writes them to the session file.
    /// - Returns: The bytes read, 0 at the end of the stream, `nil` when none were ready.
    private func readAndStore(_ connection: ClientConnection) throws(SystemError) -> Int? {
        defer { store(connection) }
        return try connection.framer.read(from: connection.fd) { line, number in
            handle(line, number: number, on: connection)
        }
    }

    /// Writes the lines checked in this read to the session file, in one write.
    private func store(_ connection: ClientConnection) {
        defer {
            accepted.removeAll()
            connection.session?.readWillEnd()
        }
        guard !accepted.isEmpty, let session = connection.session else { return }
        accepted.withContiguousBytes { write($0, to: session, of: connection) }
    }

    /// Appends complete lines to the connection's session file; when that fails, holds a copy of them to retry
    /// before anything more is read from the client.
    private func write(_ lines: UnsafeRawBufferPointer, to session: SessionFile, of connection: ClientConnection) {
        do {
            try session.append(lines)
            connection.confirmPersisted(through: session.lastSequence)
        } catch {
            connection.unwritten = Array(lines)
            log.write(.error, "session.write_failed", [
                "connection": .integer(Int64(connection.id)), "file": .string(session.path),
                "error": .string("\(error)"),
                "action": .string("holding the lines and retrying; not reading from this client meanwhile"),
            ])
        }
    }

    private func retryWrite(_ connection: ClientConnection) {
        guard let session = connection.session else { return }
        do {
            try connection.unwritten.withUnsafeBytes { try session.append($0) }
            connection.unwritten = []
            connection.confirmPersisted(through: session.lastSequence)
            log.write(.info, "session.write_resumed", [
                "connection": .integer(Int64(connection.id)), "file": .string(session.path),
            ])
        } catch {
            // Still failing; the failure was logged when it began.
        }
    }

    private func close(_ connection: ClientConnection, reason: String) {
        let pending = connection.framer.pendingByteCount
        if pending > 0 && !connection.isClosing {
            reject(
                connection, line: connection.framer.lineNumber + 1,
                reason: "incomplete last line: the connection closed after \(pending) bytes without a newline")
        }
        if let session = connection.session {
            endSession(session, of: connection, reason: reason)
        }
        connections[connection.fd] = nil
        shared.withLock {
            $0.release(from: connection.peer)
            $0.linesStored += connection.storedLines
            $0.linesRejected += connection.rejectedLines
        }
        log.write(.info, "connection.closed", [
            "connection": .integer(Int64(connection.id)), "reason": .string(reason),
            "linesStored": .integer(Int64(connection.storedLines)),
            "linesRejected": .integer(Int64(connection.rejectedLines)),
            "repliesDropped": .integer(Int64(connection.droppedReplies)),
        ])
    }

    /// Closes a session file; one whose client left without an `end` gets one saying it was disconnected.
    private func endSession(_ session: SessionFile, of connection: ClientConnection, reason: String) {
        var event = "session.ended"
        let endedByApp = session.hasEnded
        if !endedByApp {
            event = "session.disconnected"
            let end = EndEvent(
                reason: .disconnected, actions: session.lastSequence, dropped: session.dropped, time: session.lastTime)
            SessionEvent.end(end).line.withUnsafeBytes { write($0, to: session, of: connection) }
            if !connection.unwritten.isEmpty {
                log.write(.error, "session.end_lost", ["file": .string(session.path)])
            }
        }
        var closed = true
        do {
            try session.close()
        } catch {
            closed = false
            log.write(.error, "session.close_failed", ["file": .string(session.path), "error": .string("\(error)")])
        }
        // Where a session left without an `end` stands, for its client's reconnect, kept before another worker
        // may open it.
        let standing = !endedByApp && closed && connection.unwritten.isEmpty ? session.standing() : nil
        shared.withLock { state in
            if let standing { state.leftSessions.remember(standing, of: session.name) }
            state.activeSessions.remove(session.name)
        }
        connection.session = nil
        if endedByApp { finishHook?.sessionFinished(session.name) }
        log.write(.info, event, [
            "sessionId": .string(connection.sessionID ?? ""), "file": .string(session.path),
            "lastSeq": .integer(Int64(session.lastSequence)), "reason": .string(reason),
        ])
    }

    /// Stores what the clients already sent and closes every session.
    private func shutDown() {
        for connection in Array(connections.values) {
            if !connection.unwritten.isEmpty { retryWrite(connection) }
            // Drain what is already buffered, boundedly, so a client streaming forever cannot hold up the stop.
            for _ in 0..<256 where connection.unwritten.isEmpty && !connection.isClosing {
                guard let received = try? readAndStore(connection), received > 0 else { break }
            }
            close(connection, reason: "daemon stopped")
        }
    }
}
