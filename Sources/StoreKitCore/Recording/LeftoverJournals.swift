import Dispatch
import Foundation
import StoreKitSystem

/// Sends the journals that apps which ended without delivering them (a crash, a daemon that never came back) left
/// in a folder for one socket, each as the session it belongs to (its segments in order, through one connection),
/// and deletes each segment once the daemon confirmed every line in it.
///
/// The daemon continues a session it holds from its last stored sequence number, so what it has already is not
/// stored twice. A segment a running app holds (its lock; a running app keeps every segment of its journal open and
/// locked until it deletes it) or one for another socket is left alone; one that cannot be sent within
/// ``giveUpAfter`` seconds stays for the next launch.
enum LeftoverJournals {
    /// How long the journals are tried before they are left for the next launch.
    static let giveUpAfter = 60.0

    /// Sends the journals on a thread of its own.
    /// - Returns: A semaphore signalled once the thread is done, which a transport closing waits on for a while, so
    ///   that an app which records briefly and exits still delivers them.
    static func sendInBackground(folder: String, socketPath: String, timeout: Double) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        Thread {
            try? Syscall.nameCurrentThread("replay journal")
            sendAll(folder: folder, socketPath: socketPath, timeout: timeout)
            done.signal()
        }.start()
        return done
    }

    /// Sends the journals, trying again those that fail, as a transport reconnects (``ReconnectBackoff``).
    static func sendAll(folder: String, socketPath: String, timeout: Double) {
        let deadline = MonotonicClock.nanoseconds() + UInt64(giveUpAfter * 1e9)
        // A segment that cannot be opened is one this app cannot send; it is left where it is.
        var waiting = JournalFolder.journals(in: folder).map { paths in
            paths.compactMap { try? JournalFile.openLeftover(path: $0, socketPath: socketPath) }
        }.filter { !$0.isEmpty }
        var backoff = ReconnectBackoff()
        while !waiting.isEmpty {
            waiting = waiting.map { send($0, timeout: timeout) }.filter { !$0.isEmpty }
            let delay = backoff.delayAfterFailure()
            guard !waiting.isEmpty, MonotonicClock.nanoseconds() + UInt64(delay * 1e9) < deadline else { break }
            Thread.sleep(forTimeInterval: delay)
        }
        for segment in waiting.joined() { segment.close() }
    }

    /// Sends the segments of one journal and deletes each once the daemon confirmed its last line.
    /// - Returns: The segments not delivered, which stay.
    private static func send(_ segments: [JournalFile], timeout: Double) -> [JournalFile] {
        var segments = segments
        for empty in segments where empty.last == nil { empty.remove() }
        segments.removeAll { $0.last == nil }
        guard let first = segments.first, let last = segments.last?.last else { return [] }
        // Deletes the segments the daemon has every line of: an effect line once a later number is confirmed, but
        // the journal's last line once its own is (nothing later will come).
        func removeConfirmed(through persisted: Int) {
            while let oldest = segments.first,
                oldest.isConfirmed(through: persisted, endsTheSession: segments.count == 1)
            {
                oldest.remove()
                segments.removeFirst()
            }
        }
        let transport = UnixSocketTransport(path: first.socketPath, timeout: timeout, firstRetryDelay: 0)
        defer { try? transport.close() }
        do {
            let persisted = try transport.start(header: first.header) ?? 0
            var cursor = ResendCursor(
                after: persisted, skippingEffectLines: transport.effectLinesHeldAfterStart(), newAfter: .max,
                gapMessage: "the journal \(first.path) no longer holds these lines")
            var prefix: [UInt8] = []
            let rest = try cursor.gather(
                lastSequence: last.sequences.upperBound, prefix: &prefix,
                forEachHeld: { body in for segment in segments { try segment.forEachEntry(body) } },
                write: transport.write)
            if !rest.isEmpty { try transport.write(rest) }
        } catch {
            return segments
        }
        let waitUntil = MonotonicClock.nanoseconds() + UInt64(max(timeout, 1) * 5e9)
        while !segments.isEmpty {
            guard let persisted = transport.persistedSequence() else {
                // A daemon that does not confirm (protocol 1) took the lines as they came: delivered.
                removeConfirmed(through: .max)
                break
            }
            removeConfirmed(through: persisted)
            guard !segments.isEmpty, MonotonicClock.nanoseconds() < waitUntil else { break }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return segments
    }
}
