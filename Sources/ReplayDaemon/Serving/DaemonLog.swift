import Foundation
import StoreKitCore
import StoreKitJSON
import StoreKitReplay
import StoreKitSystem

/// replayd's own log: one JSON object per line on stderr, `{"time":…,"level":…,"event":…, fields…}`.
///
/// The daemon's threads share one log: each entry is formatted and written under a lock, in one write.
final class DaemonLog: @unchecked Sendable {
    /// How severe an entry is.
    enum Level: Int, Comparable, Sendable {
        case debug, info, warn, error

        init?(name: String) {
            switch name {
            case "debug": self = .debug
            case "info": self = .info
            case "warn", "warning": self = .warn
            case "error": self = .error
            default: return nil
            }
        }

        var name: String {
            switch self {
            case .debug: "debug"
            case .info: "info"
            case .warn: "warn"
            case .error: "error"
            }
        }

        static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    private let minimum: Level
    /// Not safe to share between threads by itself: used only under ``lock``.
    private let formatter: ISO8601DateFormatter
    private let lock = NSLock()

    /// Creates a log that writes entries at `minimum` or above.
    init(minimum: Level) {
        self.minimum = minimum
        formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
    }

    /// Writes one entry; `fields` follow the time, level and event, sorted by name.
    func write(_ level: Level, _ event: String, _ fields: [String: JSONValue] = [:]) {
        guard level >= minimum else { return }
        lock.lock()
        defer { lock.unlock() }
        var line = Array(#"{"time":"#.utf8)
        JSONValue.string(formatter.string(from: Date())).writeCanonical(to: &line)
        line += Array(#","level":"#.utf8)
        JSONValue.string(level.name).writeCanonical(to: &line)
        line += Array(#","event":"#.utf8)
        JSONValue.string(event).writeCanonical(to: &line)
        if !fields.isEmpty {
            line.append(UInt8(ascii: ","))
            line += JSONValue.object(fields).canonicalBytes().dropFirst()
        } else {
            line.append(UInt8(ascii: "}"))
        }
        line.append(0x0A)
        // A log that cannot be written must not stop the daemon.
        try? Syscall.writeAll(2, line, subject: "standard error")
    }
}
