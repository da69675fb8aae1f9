import Dispatch
import Foundation
import StoreKitSystem

/// Sends the journals that apps which ended without delivering them (a crash, a daemon that never came back) left
/// in a folder for one socket, each as the session it belongs to, and deletes each once the daemon confirmed it.
///
/// The daemon continues a session it holds from its last stored sequence number, so what it has already is not
/// stored twice. A journal a running app holds (its lock) or one for another socket is left alone; one that cannot
/// be sent within ``giveUpAfter`` seconds stays for the next launch.
enum LeftoverJournals {
    /// How long the journals are tried before they are left for the next launch.
    static let giveUpAfter = 60.0

    /// Sends the journals on a thread of its own.
    /// - Returns: A semaphore signalled once the thread is done, which a transport closing waits on for a while, so
    ///   that an app which records briefly and exits still delivers them.
    static func sendInBackground(folder: String, socketPath: String, timeout: Double) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            sendAll(folder: folder, socketPath: socketPath, timeout: timeout)
            done.signal()
        }
        thread.name = "storekit-replay journal"
        thread.start()
        return done
    }

    /// Sends the journals, trying again those that fail (after 10 ms, then twice as long each time, up to 5 s).
    static func sendAll(folder: String, socketPath: String, timeout: Double) {
        let deadline = MonotonicClock.nanoseconds() + UInt64(giveUpAfter * 1e9)
        // A journal that cannot be opened is one this app cannot send; it is left where it is.
        var waiting = JournalFolder.journals(in: folder).compactMap {
            try? JournalFile.openLeftover(path: $0, socketPath: socketPath)
        }
        var delay = 0.01
        while !waiting.isEmpty {
            waiting = waiting.filter { !send($0, timeout: timeout) }
            guard !waiting.isEmpty, MonotonicClock.nanoseconds() + UInt64(delay * 1e9) < deadline else { break }
            Thread.sleep(forTimeInterval: delay)
            delay = min(delay * 2, 5)
        }
        for journal in waiting { journal.close() }
    }

    /// Sends one journal and deletes it once the daemon confirmed its last line.
    /// - Returns: Whether it was delivered.
    private static func send(_ journal: JournalFile, timeout: Double) -> Bool {
        guard let last = journal.last else {
            journal.remove()
            return true
        }
        let transport = UnixSocketTransport(path: journal.socketPath, timeout: timeout, firstRetryDelay: 0)
        defer { try? transport.close() }
        do {
            let persisted = try transport.start(header: journal.header) ?? 0
            var cursor = ResendCursor(
                after: persisted, skippingEffectLines: transport.effectLinesHeldAfterStart(), newAfter: .max,
                gapMessage: "the journal \(journal.path) no longer holds these lines")
            var prefix: [UInt8] = []
            let rest = try cursor.gather(
                lastSequence: last.sequences.upperBound, prefix: &prefix, forEachHeld: journal.forEachEntry,
                write: transport.write)
            if !rest.isEmpty { try transport.write(rest) }
        } catch {
            return false
        }
        let waitUntil = MonotonicClock.nanoseconds() + UInt64(max(timeout, 1) * 5e9)
        while let persisted = transport.persistedSequence(), persisted < last.sequences.upperBound {
            guard MonotonicClock.nanoseconds() < waitUntil else { return false }
            Thread.sleep(forTimeInterval: 0.01)
        }
        journal.remove()
        return true
    }
}
