import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import StoreKitSystem

/// The session-collecting daemon. Its main thread accepts connections, watches the signal pipe and the socket
/// file, and hands each client to one of ``DaemonOptions/workerCount`` worker threads (``DaemonWorker``), in turn;
/// the workers read, check and store the lines.
final class Daemon {
    let options: DaemonOptions
    let log: DaemonLog
    private let listener: DaemonListener
    /// Runs `--on-finish` for the finished sessions; `nil` without it.
    private let finishHook: FinishHook?
    private let signals: SignalPipe
    private let shared = Locked(SharedDaemonState())
    private var inboxes: [WorkerInbox] = []
    private let workersStopped = DispatchGroup()
    private var connectionsOpened = 0
    private var acceptPausedUntil: UInt64 = 0
    private var socketCheckedAt: UInt64 = 0
    private var retentionCheckedAt: UInt64?
    private var indexRefreshedAt: UInt64?
    /// The index refresh under way, on a thread of its own: one at a time, and the stop waits for it.
    private let indexRefresh = DispatchGroup()
    /// Set when the daemon stops: an index refresh under way stops within a few thousand lines.
    private let indexRefreshStopping = Locked(false)
    private let userID = geteuid()
    /// How many connections are served at once, in all and from one process.
    private let connectionLimits: ConnectionLimits
    /// Connections refused for another user or for a limit; their log entries are throttled.
    private var connectionsRefused = 0
    private var refusalLog = EventThrottle(perSecond: 10)

    /// Prepares the session directory and the socket, and repairs cut-off session files.
    /// - Throws: ``DaemonError`` when the daemon cannot start.
    init(options: DaemonOptions, log: DaemonLog) throws(DaemonError) {
        self.options = options
        self.log = log
        connectionLimits = try Self.raiseDescriptorLimit(options: options, log: log)
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
        finishHook = try options.onFinish.map { settings throws(DaemonError) in
            try FinishHook(settings: settings, directory: options.sessionDirectory, log: log)
        }
        OpenAncestorFolders.warn(
            about: [(options.socketPath as NSString).deletingLastPathComponent, options.sessionDirectory], log: log)
        do {
            inboxes = try (0..<options.workerCount).map { _ throws(SystemError) in try WorkerInbox() }
        } catch {
            throw DaemonError("cannot set up the worker threads: \(error)")
        }
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

    /// Raises the soft limit on open descriptors as far as it goes, and logs the limits that follow from it
    /// (`daemon.limits`; a warning with the error when it could not be raised, and the daemon goes on within it).
    /// - Throws: ``DaemonError`` when the limit cannot even be read.
    private static func raiseDescriptorLimit(options: DaemonOptions, log: DaemonLog) throws(DaemonError) -> ConnectionLimits {
        let before: Syscall.DescriptorLimit
        do {
            before = try Syscall.descriptorLimit()
        } catch {
            throw DaemonError("cannot read the limit on open files: \(error)")
        }
        var descriptors = before
        var failure: SystemError?
        do {
            descriptors = try Syscall.raiseDescriptorSoftLimit()
        } catch {
            failure = error
        }
        let limits = ConnectionLimits(
            descriptorLimit: descriptors.soft, workerCount: options.workerCount, perPeer: options.maxConnectionsPerPeer)
        var fields: [String: JSONValue] = [
            "openFilesBefore": .integer(Int64(clamping: before.soft)),
            "openFiles": .integer(Int64(clamping: descriptors.soft)),
            "openFilesHard": .integer(Int64(clamping: descriptors.hard)),
            "maxConnections": .integer(Int64(limits.total)),
            "maxConnectionsPerPeer": .integer(Int64(limits.perPeer)),
            "headerTimeoutSeconds": .double(options.headerTimeout.seconds),
        ]
        if let failure { fields["error"] = .string("\(failure)") }
        log.write(failure == nil ? .info : .warn, "daemon.limits", fields)
        return limits
    }

    /// Serves until SIGTERM or SIGINT, then closes every session and removes the socket.
    func run() {
        log.write(.info, "daemon.started", [
            "socket": .string(options.socketPath), "dir": .string(options.sessionDirectory),
            "pid": .integer(Int64(getpid())), "maxLineBytes": .integer(Int64(options.maxLineBytes)),
            "threads": .integer(Int64(options.workerCount)),
        ])
        finishHook?.start()
        for inbox in inboxes { startWorker(inbox) }
        while true {
            var descriptors = [pollfd(fd: signals.readEnd, events: Int16(POLLIN), revents: 0)]
            let accepting = MonotonicClock.nanoseconds() >= acceptPausedUntil
            if accepting { descriptors.append(pollfd(fd: listener.fd, events: Int16(POLLIN), revents: 0)) }
            // Wake at least once a second to check the socket file; every 200 ms while accepting is paused.
            do {
                _ = try Syscall.poll(&descriptors, timeoutMilliseconds: accepting ? 1000 : 200)
            } catch {
                log.write(.error, "daemon.poll_failed", ["error": .string("\(error)")])
                continue
            }
            checkSocketFile(now: MonotonicClock.nanoseconds())
            applyRetention(now: MonotonicClock.nanoseconds())
            refreshIndex(now: MonotonicClock.nanoseconds())
            if descriptors[0].revents != 0, !signals.drain().isEmpty {
                shutDown()
                return
            }
            if accepting, descriptors[1].revents != 0 { acceptPending() }
        }
    }

    private func startWorker(_ inbox: WorkerInbox) {
        workersStopped.enter()
        let thread = Thread { [options, log, shared, workersStopped, finishHook] in
            try? Syscall.nameCurrentThread("replayd worker")
            DaemonWorker(options: options, log: log, shared: shared, inbox: inbox, finishHook: finishHook).run()
            workersStopped.leave()
        }
        // As deep as the main thread's: a full parse of a rejected line recurses once per level of nesting.
        thread.stackSize = 8 << 20
        thread.start()
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

    /// At start and then every ``SessionRetention/checkInterval``: removes the finished sessions past
    /// `--max-age` or beyond `--max-bytes`, oldest first, logging each.
    private func applyRetention(now: UInt64) {
        let retention = options.retention
        guard retention.isEnabled else { return }
        let interval = UInt64(retention.checkInterval.seconds * 1e9)
        if let checked = retentionCheckedAt, now &- checked < interval { return }
        retentionCheckedAt = now
        let files = SessionRetention.storedFiles(in: options.sessionDirectory)
        let planned = retention.removals(of: files, open: shared.withLock { $0.activeSessions }, now: Date())
        for removal in planned {
            let path = options.sessionDirectory + "/" + removal.file.name
            // Under the lock, so that no worker opens the session again while it is removed.
            let outcome: Result<Bool, SystemError> = shared.withLock { state in
                guard !state.activeSessions.contains(removal.file.name) else { return .success(false) }
                do throws(SystemError) {
                    try Syscall.unlink(path)
                    return .success(true)
                } catch {
                    return .failure(error)
                }
            }
            switch outcome {
            case .success(true):
                finishHook?.forget(removal.file.name)
                log.write(.info, "session.removed", [
                    "file": .string(path), "reason": .string(removal.reason.rawValue),
                    "bytes": .integer(Int64(removal.file.bytes)),
                    "ageSeconds": .integer(Int64(Date().timeIntervalSince(removal.file.modified))),
                ])
            case .success(false):
                break  // A client reopened it since the folder was listed.
            case .failure(let error):
                log.write(.error, "session.remove_failed", ["file": .string(path), "error": .string("\(error)")])
            }
        }
    }

    /// At start and then every 30 seconds, on a thread of its own at the lowest priority: brings the folder's
    /// ``SessionIndex`` up to date, so `replay-cli sessions` reads only what changed since; a session being recorded
    /// keeps the entry it has until it ends. The first index also tells `--on-finish` which finished sessions still
    /// wait for its command.
    private func refreshIndex(now: UInt64) {
        if let refreshed = indexRefreshedAt, now &- refreshed < 30_000_000_000 { return }
        let catchingUp = indexRefreshedAt == nil ? finishHook : nil
        indexRefreshedAt = now
        // Only this thread starts a refresh, so one that has not ended yet is one under way.
        guard indexRefresh.wait(timeout: .now()) == .success else { return }
        indexRefresh.enter()
        let thread = Thread { [options, log, indexRefreshStopping, shared, indexRefresh] in
            defer { indexRefresh.leave() }
            try? Syscall.nameCurrentThread("replayd index")
            // The lowest priority: after a restart the index reads the sessions its clients come back to continue,
            // and their lines, journaled while the daemon was away, come first. Without it the refresh took a
            // core from a client sending its journal again, whose recorder then dropped actions (docs/performance.md).
            _ = try? Syscall.lowerCurrentThreadPriority(to: .background)
            do {
                // A session being recorded is read once, and again once it ends: not every 30 seconds of its
                // recording, which for a long one would take the daemon's CPU from its clients.
                let (index, filesRead) = try SessionIndex.refreshed(
                    in: options.sessionDirectory, isCancelled: { indexRefreshStopping.withLock { $0 } },
                    filesBeingWritten: shared.withLock { $0.activeSessions })
                catchingUp?.catchUp(with: index)
                log.write(.debug, "index.refreshed", [
                    "sessions": .integer(Int64(index.entries.count)), "filesRead": .integer(Int64(filesRead)),
                ])
            } catch is CancellationError {
                log.write(.info, "index.refresh_stopped", ["reason": .string("the daemon is stopping")])
            } catch {
                log.write(.error, "index.refresh_failed", ["error": .string("\(error)")])
            }
        }
        thread.start()
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
            admit(fd, id: connectionsOpened)
        }
    }

    /// Hands a new connection to a worker, or closes it: another user's, one whose peer cannot be told, and one
    /// past a ``ConnectionLimits`` limit (which is told why with a `rejected` reply).
    private func admit(_ fd: Int32, id: Int) {
        let peer: Syscall.PeerCredentials
        do {
            peer = try Syscall.peerCredentials(fd)
        } catch {
            refuse(fd, connection: id, event: "peer.refused", ["reason": .string("\(error)")])
            return
        }
        guard peer.userID == userID else {
            refuse(fd, connection: id, event: "peer.refused", [
                "uid": .integer(Int64(peer.userID)),
                "reason": .string("another user (uid \(peer.userID)) may not record into this user's daemon"),
            ])
            return
        }
        switch shared.withLock({ $0.admit(from: peer.processID, within: connectionLimits) }) {
        case .failure(let exceeded):
            let reason = connectionLimits.reason(exceeded, process: peer.processID)
            let reply = DaemonReply.rejected(line: 1, reason: reason).line
            // Best effort: a client that is already gone needs no reason.
            _ = reply.withUnsafeBytes { try? Syscall.send(fd, $0) }
            refuse(fd, connection: id, event: "connection.refused", [
                "pid": .integer(Int64(peer.processID)), "limit": .string(exceeded.rawValue), "reason": .string(reason),
            ])
        case .success(let open):
            log.write(.info, "connection.opened", [
                "connection": .integer(Int64(id)), "pid": .integer(Int64(peer.processID)), "open": .integer(Int64(open)),
            ])
            let deadline = MonotonicClock.nanoseconds() + UInt64(options.headerTimeout.seconds * 1e9)
            inboxes[id % inboxes.count].hand(
                WorkerInbox.Accepted(fd: fd, id: id, peer: peer.processID, headerDeadline: deadline))
        }
    }

    /// Closes a connection that may not record here and logs why: at most ten such entries a second, the next one
    /// written counting those left out (`notLogged`), so a flood of connections cannot flood the log.
    private func refuse(_ fd: Int32, connection id: Int, event: String, _ fields: [String: JSONValue]) {
        try? Syscall.close(fd)
        connectionsRefused += 1
        guard let heldBack = refusalLog.pass(now: MonotonicClock.nanoseconds()) else { return }
        var fields = fields
        fields["connection"] = .integer(Int64(id))
        if heldBack > 0 { fields["notLogged"] = .integer(Int64(heldBack)) }
        log.write(.warn, event, fields)
    }

    // MARK: - Shutdown

    /// Stops accepting, has every worker store what its clients already sent and close its sessions, stops an index
    /// refresh under way and waits for it, and removes the socket; `daemon.stopped` is the log's last entry.
    private func shutDown() {
        log.write(.info, "daemon.stopping", ["open": .integer(Int64(shared.withLock { $0.openConnections }))])
        indexRefreshStopping.withLock { $0 = true }
        listener.close()
        for inbox in inboxes { inbox.stop() }
        workersStopped.wait()
        indexRefresh.wait()
        finishHook?.stop()
        let totals = shared.withLock { $0 }
        log.write(.info, "daemon.stopped", [
            "connections": .integer(Int64(connectionsOpened)),
            "connectionsRefused": .integer(Int64(connectionsRefused)), "linesStored": .integer(Int64(totals.linesStored)),
            "linesRejected": .integer(Int64(totals.linesRejected)),
        ])
    }
}
