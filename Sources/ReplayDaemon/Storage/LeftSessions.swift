import StoreKitSystem

/// Where each session of format 2 or later stood when its client left without an `end`, so that the client's
/// reconnect continues it without reading the whole stored file again (``StoredEffectRuns``): a session of gigabytes
/// takes seconds to read, longer than a client waits for its welcome.
///
/// A standing is used only while the stored file is the one it was taken from, unchanged since: the same device and
/// inode, size, times and owner. A file changed since (repaired, cut, replaced, or appended to by hand) is read
/// again. At most ``capacity`` sessions are kept, the one left longest ago let go first. Used under the daemon's
/// shared lock.
struct LeftSessions {
    /// Where a session stood when its client left, and its stored file then.
    struct Standing {
        /// The order a continuation keeps (``SessionLineOrder/continuation``).
        let order: SessionLineOrder
        /// The time of the last action stored.
        let lastTime: Double
        /// The stored file's status once the daemon closed it.
        let file: Syscall.FileStatus
    }

    /// The most sessions kept.
    static var capacity: Int { 64 }

    private var standings: [String: Standing] = [:]
    /// The names of the sessions kept, the one left longest ago first.
    private var names: [String] = []

    /// Keeps where the session in the file `name` stood when its client left.
    mutating func remember(_ standing: Standing, of name: String) {
        if standings.updateValue(standing, forKey: name) != nil { names.removeAll { $0 == name } }
        names.append(name)
        if names.count > Self.capacity { standings[names.removeFirst()] = nil }
    }

    /// Takes out where the session in the file `name` stood, if it was kept.
    mutating func take(_ name: String) -> Standing? {
        guard let standing = standings.removeValue(forKey: name) else { return nil }
        names.removeAll { $0 == name }
        return standing
    }
}
