import Foundation
import StoreKitCore

/// The session-collecting daemon: one thread, one `poll` loop over the listening socket, the signal pipe and every
/// client, reading at most one chunk from each ready client per turn so no client holds up the others.
///
/// Every complete line read is checked and written to its session file before the next read from that client,
/// so `kill -9` loses no line the daemon had read.
final class Daemon {
    let options: DaemonOptions
    let log: DaemonLog
    private let listener: DaemonListener
    private let signals: SignalPipe
    private var connections: [Int32: ClientConnection] = [:]
    /// File names of the sessions being recorded now, so one session has one writer.
    var activeSessions: Set<String> = []
    var validator = SessionLineValidator()
    var batch: [UInt8] = []
    private var connectionsOpened = 0
    var linesStored = 0
    var linesRejected = 0
    private var acceptPausedUntil: UInt64 = 0
    private var socketCheckedAt: UInt64 = 0
    private let userID = geteuid()

    /// Prepares the session directory and the socket, and repairs cut-off session files.
    /// - Throws: ``DaemonError`` when the daemon cannot start.
    init(options: DaemonOptions, log: DaemonLog) throws(DaemonError) {
        self.options = options
        self.log = log
        do {
            try DaemonListener.preparePrivateDirectory(options.sessionDirectory)
        } catch let error as DaemonError {
            throw error
        } catch {
            throw DaemonError("cannot use session directory \(options.sessionDirectory): \(error)")
        }
        do {
            signals = try SignalPipe(signals: [SIGTERM, SIGINT])
        } catch {
            throw DaemonError("cannot set up signal handling: \(error)")
        }
        listener = try DaemonListener(path: options.socketPath)
        let (repairs, failures) = SessionRepair.repairAll(in: options.sessionDirectory)
        for repair in repairs {
            log.write(.warn, "file.repaired", [
                "file": .string(repair.file), "keptAt": .string(repair.keptAt),
                "bytes": .integer(Int64(repair.byteCount)),
            ])
        }
        for failure in failures {
            log.write(.error, "file.unchecked", ["file": .string(failure.file), "error": .string(failure.error)])
        }
    }

    /// Serves until SIGTERM or SIGINT, then closes every session and removes the socket.
    func run() {
        log.write(.info, "daemon.started", [
            "socket": .string(options.socketPath), "dir": .string(options.sessionDirectory),
            "pid": .integer(Int64(getpid())), "maxLineBytes": .integer(Int64(options.maxLineBytes)),
        ])
        while true {
            var descriptors = [pollfd(fd: signals.readEnd, events: Int16(POLLIN), revents: 0)]
            let now = MonotonicClock.nanoseconds()
            let accepting = now >= acceptPausedUntil
            if accepting { descriptors.append(pollfd(fd: listener.fd, events: Int16(POLLIN), revents: 0)) }
            let stalled = connections.values.filter { !$0.unwritten.isEmpty }
            for connection in connections.values where connection.unwritten.isEmpty {
                descriptors.append(pollfd(fd: connection.fd, events: Int16(POLLIN), revents: 0))
            }
            // Wake at least once a second to check the socket file; every 200 ms while a write or accept waits.
            let timeout: Int32 = stalled.isEmpty && accepting ? 1000 : 200
            do {
                _ = try Syscall.poll(&descriptors, timeoutMilliseconds: timeout)
            } catch {
                log.write(.error, "daemon.poll_failed", ["error": .string("\(error)")])
                continue
            }
            checkSocketFile(now: MonotonicClock.nanoseconds())
            if descriptors[0].revents != 0, !signals.drain().isEmpty {
                shutDown()
                return
            }
            for connection in stalled { retryWrite(connection) }
            for descriptor in descriptors.dropFirst() where descriptor.revents != 0 {
                if descriptor.fd == listener.fd {
                    acceptPending()
                } else if let connection = connections[descriptor.fd] {
                    serve(connection)
                }
            }
        }
    }

    /// Once a second: recreates the socket file if someone deleted it, and reports one that was replaced.
    private func checkSocketFile(now: UInt64) {
        guard now &- socketCheckedAt >= 1_000_000_000 else { return }
        socketCheckedAt = now
        switch listener.checkSocketFile() {
        case .intact:
            break
        case .recreated:
            log.write(.warn, "socket.recreated", [
                "socket": .string(options.socketPath), "reason": .string("the socket file had been deleted"),
            ])
        case .replaced:
            log.write(.error, "socket.replaced", [
                "socket": .string(options.socketPath),
                "reason": .string("another file now has the socket's name; new clients cannot reach this daemon"),
            ])
        case .failed(let error):
            log.write(.error, "socket.recreate_failed", ["socket": .string(options.socketPath), "error": .string(error)])
        }
    }

    // MARK: - Connections

    private func acceptPending() {
        for _ in 0..<64 {
            let fd: Int32
            do {
                guard let accepted = try Syscall.accept(listener.fd, subject: options.socketPath) else { return }
                fd = accepted
            } catch {
                // Out of descriptors or memory: wait a little instead of spinning on a readable listener.
                log.write(.error, "connection.accept_failed", ["error": .string("\(error)")])
                acceptPausedUntil = MonotonicClock.nanoseconds() + 200_000_000
                return
            }
            connectionsOpened += 1
            let connection = ClientConnection(fd: fd, id: connectionsOpened, maxLineBytes: options.maxLineBytes)
            do {
                let peer = try Syscall.peerUserID(fd)
                guard peer == userID else {
                    log.write(.warn, "peer.refused", [
                        "connection": .integer(Int64(connection.id)), "uid": .integer(Int64(peer)),
                        "reason": .string("another user (uid \(peer)) may not record into this user's daemon"),
                    ])
                    continue
                }
            } catch {
                log.write(.warn, "peer.refused", [
                    "connection": .integer(Int64(connection.id)), "reason": .string("\(error)"),
                ])
                continue
            }
            connections[fd] = connection
            log.write(.info, "connection.opened", [
                "connection": .integer(Int64(connection.id)), "open": .integer(Int64(connections.count)),
            ])
        }
    }

    /// Reads one chunk from the client, and stores the lines it completed before anything else is read.
    private func serve(_ connection: ClientConnection) {
        let received: Int?
        batch.removeAll(keepingCapacity: true)
        do {
            received = try connection.framer.read(from: connection.fd) { line, number in
                handle(line, number: number, on: connection)
            }
        } catch {
            store(connection)
            close(connection, reason: "\(error)")
            return
        }
        store(connection)
        connection.flushReplies()
        if received == 0 || connection.isClosing {
            close(connection, reason: received == 0 ? "closed by the client" : "refused")
        }
    }

    /// Writes the lines checked in this read to the session file, in one write.
    private func store(_ connection: ClientConnection) {
        guard !batch.isEmpty, let session = connection.session else { return }
        do {
            try session.append(batch)
        } catch {
            connection.unwritten = batch
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
            try session.append(connection.unwritten)
            connection.unwritten = []
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
        if !session.hasEnded {
            event = "session.disconnected"
            let end = EndEvent(
                reason: .disconnected, actions: session.lastSequence, dropped: session.dropped, time: session.lastTime)
            batch = SessionEvent.end(end).line
            store(connection)
            if !connection.unwritten.isEmpty {
                log.write(.error, "session.end_lost", ["file": .string(session.path)])
            }
        }
        do {
            try session.close()
        } catch {
            log.write(.error, "session.close_failed", ["file": .string(session.path), "error": .string("\(error)")])
        }
        activeSessions.remove(session.name)
        connection.session = nil
        log.write(.info, event, [
            "sessionId": .string(connection.sessionID ?? ""), "file": .string(session.path),
            "lastSeq": .integer(Int64(session.lastSequence)), "reason": .string(reason),
        ])
    }

    // MARK: - Shutdown

    /// Stops accepting, stores what the clients already sent, closes every session and removes the socket.
    private func shutDown() {
        log.write(.info, "daemon.stopping", ["open": .integer(Int64(connections.count))])
        listener.close()
        for connection in Array(connections.values) {
            batch.removeAll(keepingCapacity: true)
            if !connection.unwritten.isEmpty { retryWrite(connection) }
            // Drain what is already buffered, boundedly, so a client streaming forever cannot hold up the stop.
            for _ in 0..<256 where connection.unwritten.isEmpty && !connection.isClosing {
                batch.removeAll(keepingCapacity: true)
                let received = try? connection.framer.read(from: connection.fd) { line, number in
                    handle(line, number: number, on: connection)
                }
                store(connection)
                guard let received, received > 0 else { break }
            }
            batch.removeAll(keepingCapacity: true)
            close(connection, reason: "daemon stopped")
        }
        log.write(.info, "daemon.stopped", [
            "connections": .integer(Int64(connectionsOpened)), "linesStored": .integer(Int64(linesStored)),
            "linesRejected": .integer(Int64(linesRejected)),
        ])
    }
}
