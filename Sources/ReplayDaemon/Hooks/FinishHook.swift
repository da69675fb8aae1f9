import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import StoreKitSystem

/// `replayd --on-finish`: runs a command once for every finished session, on a thread of its own, so that a slow
/// or failing command never holds up the clients' lines.
///
/// A session is finished when its file ends with the app's own `end` line (any reason but `disconnected`, which
/// the daemon writes for an app that went away and which a reconnect continues). The command runs with the
/// session's path as its last argument and the session's index line (``SessionIndex/Entry/jsonValue``) on its
/// standard input (see ``HookProcess``), for one session at a time, in the order they finished. A failed run is
/// retried after a backoff that doubles; each run is logged (`hook.attempt`), and so is giving up (`hook.gave_up`).
///
/// Success is remembered by an empty marker file, `.on-finish/<session file>.done` in the session folder. When the
/// daemon starts, every finished session without a marker is handed to the command again: one whose runs all
/// failed, one the daemon stopped or was killed before its command succeeded, and, the first time `--on-finish` is
/// used on a folder, every finished session already there. So a command may see a session again after a crash
/// between its success and the marker, never zero times.
final class FinishHook: @unchecked Sendable {
    /// The command and how it is retried.
    struct Settings: Sendable {
        /// The shell command line; the session's path is appended as its last argument.
        var command: String
        /// How many times a failed run is retried.
        var retries = Settings.defaultRetries
        /// The wait before the first retry, doubled before each next one.
        var backoff = Settings.defaultBackoff
        /// How long one run may take before it is terminated (and counts as failed).
        var timeout = Settings.defaultTimeout

        /// Enough to ride out a short network outage without hammering a store that is down.
        static let defaultRetries = 3
        /// One second, then two, then four.
        static let defaultBackoff = Duration.seconds(1)
        /// Ample for uploading a large session over a slow link.
        static let defaultTimeout = Duration.seconds(600)
    }

    /// What the command's thread and the threads handing it sessions share; used only under ``condition``.
    private struct Queue {
        /// Session files waiting for the command, oldest first.
        var waiting: [String] = []
        /// Session files waiting or being handed over now, so that one is never queued twice.
        var pending: Set<String> = []
        /// True once the daemon is stopping.
        var stopping = false
    }

    private let settings: Settings
    private let directory: String
    private let markers: String
    private let log: DaemonLog
    private let condition = NSCondition()
    private var queue = Queue()
    private let stopped = DispatchSemaphore(value: 0)
    /// When the daemon started, in milliseconds since 1970: a session modified since ended in this run, which hands
    /// it over itself, so the catch-up leaves it alone however late the first index comes.
    private let startedAtMilliseconds = Int64(Date().timeIntervalSince1970 * 1000)

    /// The name of the folder, inside the session folder, that holds the success markers.
    static let markerFolderName = ".on-finish"

    /// Prepares the marker folder in `directory`.
    /// - Throws: ``DaemonError`` when the folder cannot be made or is not a private directory.
    init(settings: Settings, directory: String, log: DaemonLog) throws(DaemonError) {
        self.settings = settings
        self.directory = directory
        self.log = log
        markers = directory + "/" + Self.markerFolderName
        do {
            try DaemonListener.preparePrivateDirectory(markers)
        } catch let error as DaemonError {
            throw error
        } catch {
            throw DaemonError("cannot use the --on-finish marker folder \(markers): \(error)")
        }
    }

    /// Starts the thread that runs the command.
    func start() {
        Thread { [self] in
            try? Syscall.nameCurrentThread("replayd hooks")
            while let name = next() {
                handOver(name)
                locked { _ = queue.pending.remove(name) }
            }
            stopped.signal()
        }.start()
    }

    /// Terminates a command still running (its session is handed over again at the next start) and waits for the
    /// thread to end.
    func stop() {
        locked {
            queue.stopping = true
            condition.broadcast()
        }
        stopped.wait()
    }

    /// Queues a session whose app ended it; returns at once.
    func sessionFinished(_ name: String) {
        locked {
            guard !queue.stopping, queue.pending.insert(name).inserted else { return }
            queue.waiting.append(name)
            condition.signal()
        }
    }

    /// At start: queues every finished session of `index` that has no success marker and was last modified before
    /// the daemon started, and removes the markers of sessions that are gone.
    ///
    /// The index may come late, listed before this run's sessions were written: so a session this run finished is
    /// left to this run, and a marker goes only with a session file that is gone now, not one missing from the index.
    func catchUp(with index: SessionIndex) {
        let markerNames = (try? FileManager.default.contentsOfDirectory(atPath: markers)) ?? []
        for marker in markerNames where marker.hasSuffix(".done") && isGone(String(marker.dropLast(5))) {
            try? Syscall.unlink(markers + "/" + marker)
        }
        for entry in index.entries
        where entry.modifiedMilliseconds < startedAtMilliseconds && Self.isFinished(entry) && !hasMarker(entry.file) {
            sessionFinished(entry.file)
        }
    }

    /// Whether the session file `name` is gone from the folder; one that cannot be looked at is not.
    private func isGone(_ name: String) -> Bool {
        do {
            return try Syscall.status(directory + "/" + name) == nil
        } catch {
            return false
        }
    }

    /// Removes the success marker of a session that is removed.
    func forget(_ name: String) {
        try? Syscall.unlink(markerPath(name))
    }

    /// Whether `entry` is a session its app ended: one with an `end` other than `disconnected`, read to the end.
    static func isFinished(_ entry: SessionIndex.Entry) -> Bool {
        entry.damage.isEmpty && entry.status != "open" && entry.status != EndEvent.Reason.disconnected.rawValue
    }

    // MARK: - The command's thread

    /// The next session to hand over; `nil` when the daemon is stopping.
    private func next() -> String? {
        locked {
            while queue.waiting.isEmpty && !queue.stopping { condition.wait() }
            return queue.stopping ? nil : queue.waiting.removeFirst()
        }
    }

    private var isStopping: Bool { locked { queue.stopping } }

    /// Runs `body` holding ``condition``'s lock.
    private func locked<T>(_ body: () -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }

    /// Runs the command for one session until it succeeds, the retries run out, or the daemon stops.
    private func handOver(_ name: String) {
        guard !hasMarker(name) else { return }
        let path = directory + "/" + name
        guard let status = try? Syscall.linkStatus(path), status.isRegularFile else {
            log.write(.warn, "hook.skipped", ["file": .string(path), "reason": .string("the session file is gone")])
            return
        }
        let entry = SessionIndex.summarize(path, bytes: UInt64(status.size), modifiedMilliseconds: status.modifiedMilliseconds)
        let input = entry.jsonValue.canonicalBytes() + [0x0A]
        let attempts = settings.retries + 1
        var backoff = settings.backoff
        for attempt in 1...attempts {
            let started = MonotonicClock.nanoseconds()
            let run = HookProcess.run(
                settings.command, path: path, input: input, environment: Self.environment(of: entry),
                timeout: settings.timeout, stopping: { isStopping })
            let willRetry = attempt < attempts && run.outcome != .succeeded && run.outcome != .interrupted
            logAttempt(run, file: path, attempt: attempt, of: attempts, started: started, retryIn: willRetry ? backoff : nil)
            switch run.outcome {
            case .succeeded:
                markSucceeded(name)
                return
            case .interrupted:
                return
            case .failed, .timedOut, .notStarted:
                guard willRetry else { break }
                if waitOrStop(backoff) { return }
                backoff *= 2
            }
        }
        log.write(.error, "hook.gave_up", [
            "file": .string(path), "attempts": .integer(Int64(attempts)),
            "note": .string("handed to the command again when replayd next starts"),
        ])
    }

    /// Waits `duration` unless the daemon stops first; true when it stopped.
    private func waitOrStop(_ duration: Duration) -> Bool {
        let until = Date(timeIntervalSinceNow: duration.seconds)
        return locked {
            while !queue.stopping && condition.wait(until: until) {}
            return queue.stopping
        }
    }

    private func logAttempt(
        _ run: HookProcess.Run, file: String, attempt: Int, of attempts: Int, started: UInt64, retryIn: Duration?
    ) {
        var fields: [String: JSONValue] = [
            "file": .string(file), "attempt": .integer(Int64(attempt)), "attempts": .integer(Int64(attempts)),
            "seconds": .double(Double(MonotonicClock.nanoseconds() &- started) / 1e9),
        ]
        switch run.outcome {
        case .succeeded:
            fields["outcome"] = .string("succeeded")
        case .failed(let status):
            fields["outcome"] = .string("failed")
            fields["status"] = .integer(Int64(status))
        case .timedOut:
            fields["outcome"] = .string("timedOut")
            fields["timeoutSeconds"] = .double(settings.timeout.seconds)
        case .interrupted:
            fields["outcome"] = .string("interrupted")
            fields["note"] = .string("replayd is stopping; handed to the command again when it next starts")
        case .notStarted(let error):
            fields["outcome"] = .string("notStarted")
            fields["error"] = .string(error)
        }
        if !run.errorTail.isEmpty { fields["stderr"] = .string(run.errorTail) }
        if let retryIn { fields["retryInSeconds"] = .double(retryIn.seconds) }
        log.write(run.outcome == .succeeded ? .info : .warn, "hook.attempt", fields)
    }

    // MARK: - Markers

    private func markerPath(_ name: String) -> String { markers + "/" + name + ".done" }

    private func hasMarker(_ name: String) -> Bool {
        (try? Syscall.linkStatus(markerPath(name))) != nil
    }

    private func markSucceeded(_ name: String) {
        do {
            try Syscall.close(try PrivateFile.open(markerPath(name), O_WRONLY | O_CREAT))
        } catch {
            log.write(.error, "hook.marker_failed", [
                "file": .string(markerPath(name)), "error": .string("\(error)"),
                "note": .string("the command succeeded; without the marker it runs again for this session at the next start"),
            ])
        }
    }

    /// The header's app, store, session id and start time for the command, as `REPLAYD_APP_NAME`,
    /// `REPLAYD_STORE_ID`, `REPLAYD_SESSION_ID` and `REPLAYD_STARTED_AT`; control characters, which no
    /// environment variable should carry, are written as `?`.
    static func environment(of entry: SessionIndex.Entry) -> [String: String] {
        func printable(_ text: String) -> String {
            String(String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : $0 }))
        }
        return [
            "REPLAYD_APP_NAME": printable(entry.appName), "REPLAYD_STORE_ID": printable(entry.storeID),
            "REPLAYD_SESSION_ID": printable(entry.sessionID), "REPLAYD_STARTED_AT": printable(entry.startedAt),
        ]
    }
}
