import Foundation

extension UnixSocketTransport {
    /// Where, and how much, a transport writes to disk of the lines `replayd` has not confirmed: while the daemon
    /// is unreachable, or when those lines outgrow the recorder's in-memory hold
    /// (``SessionRecorder/Configuration/unconfirmedBufferBytes``).
    ///
    /// The journal is a sequence of segment files per session in ``folder`` (created with mode 0700, each file with
    /// 0600), sent again after the reconnect before newer lines; each segment is deleted as soon as the daemon
    /// confirmed every line in it, so a journal sent while new lines join it shrinks from its oldest end. A journal
    /// left behind by an app that ended without delivering it (a crash, or a daemon that never came back) is sent
    /// by the next transport started with the same folder and socket path, as the session it belongs to; one a
    /// running app holds is left alone. Lines beyond ``byteLimit`` (all segments counted) are recorded as a `gap`
    /// (reason `transportFailed`), exactly counted; so are lines a disk error (a full disk, a folder that cannot be
    /// written) kept out of it. The recorder's ``RecorderStatistics/actionsJournaled`` counts the actions held in
    /// it and not yet delivered.
    public struct Journal: Sendable, Equatable {
        /// The folder that holds the journal files.
        public var folder: String
        /// The most bytes one session's journal may hold, all its segment files counted.
        public var byteLimit: Int

        /// Creates the settings of a journal.
        /// - Parameters:
        ///   - folder: The folder that holds the journal files; ``defaultFolder(environment:)`` when nil.
        ///   - byteLimit: The most bytes one session's journal may hold, all its segment files counted (256 MB
        ///     unless set).
        public init(folder: String? = nil, byteLimit: Int = 256 << 20) {
            self.folder = folder ?? Self.defaultFolder()
            self.byteLimit = max(0, byteLimit)
        }

        /// The app's caches folder's `storekit-replay/journal`: under `$XDG_CACHE_HOME` when it is set, else the
        /// Caches directory on Apple platforms, else `~/.cache`.
        public static func defaultFolder(
            environment: [String: String] = ProcessInfo.processInfo.environment
        ) -> String {
            cachesFolder(environment: environment) + "/storekit-replay/journal"
        }

        private static func cachesFolder(environment: [String: String]) -> String {
            if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg }
            #if canImport(Darwin)
                if let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first {
                    return caches.path
                }
            #endif
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            return home + "/.cache"
        }
    }
}
