import StoreKitCore
import StoreKitReplay

/// Turns the ids a client sends into a file name inside the session directory, so no client chooses a path.
///
/// Each id keeps `[A-Za-z0-9._-]`, has anything else replaced by `_`, loses leading dots and is cut to 64 bytes;
/// when that changed the id, 8 hex digits of its FNV-1a hash are appended so distinct ids stay distinct files.
/// The name is `<store>-<session>.jsonl`.
enum SessionFileName {
    /// The longest part an id contributes before its hash.
    static let maxIDBytes = 64

    /// The file name for a session.
    static func make(storeID: String, sessionID: String) -> String {
        "\(sanitize(storeID))-\(sanitize(sessionID)).jsonl"
    }

    /// One id as a safe file name part.
    static func sanitize(_ id: String) -> String {
        var bytes = id.utf8.map { byte -> UInt8 in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                byte
            default:
                UInt8(ascii: "_")
            }
        }
        while bytes.first == UInt8(ascii: ".") { bytes[0] = UInt8(ascii: "_") }
        if bytes.count > maxIDBytes { bytes.removeLast(bytes.count - maxIDBytes) }
        let safe = String(decoding: bytes, as: UTF8.self)
        guard safe != id || safe.isEmpty else { return safe }
        let hash = fnv1a(Array(id.utf8))
        let hex = String(hash, radix: 16)
        return (safe.isEmpty ? "" : safe + "-") + String(repeating: "0", count: 8 - hex.count) + hex
    }

    private static func fnv1a(_ bytes: [UInt8]) -> UInt32 {
        var hash: UInt32 = 0x811C_9DC5
        for byte in bytes {
            hash ^= UInt32(byte)
            hash = hash &* 0x0100_0193
        }
        return hash
    }
}
