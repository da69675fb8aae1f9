import StoreKitCore
import StoreKitReplay

/// Turns the ids a client sends into a file name inside the session directory: no client chooses a path, and two
/// different pairs of ids never get the same name, on a file system that ignores case too.
///
/// The name is `<store>-<session>.jsonl`. Each id is written with `a-z`, `A-Z`, `0-9`, `_` and `.` as they are
/// (`-` too in the session id), and every other byte, a leading `.` included, as `%` and two upper-case hex digits.
/// So the store part holds no `-`, the first `-` ends it, and each part reads back into its id: distinct ids give
/// distinct names. An id with an upper-case letter, or whose written form is longer than ``maxPartBytes``, is written
/// as the start of that form, `~` and 16 hex digits of a 64-bit FNV-1a hash of the id. No written form holds a `~`,
/// so a hashed part never looks like another id's written one. Two ids whose hashes collide share a name; the
/// header check of a file that already exists (``StoredHeader``) refuses the second rather than merging them.
enum SessionFileName {
    /// The longest part an id contributes to the name: two parts and `.jsonl` stay well under the 255 bytes a name
    /// may have, with room for a repair's `.partial-<time>` suffix.
    static let maxPartBytes = 100

    /// The file name for a session.
    static func make(storeID: String, sessionID: String) -> String {
        part(storeID, keepingDashes: false) + "-" + part(sessionID, keepingDashes: true) + "."
            + SessionFormat.fileExtension
    }

    /// One id as a part of the name.
    static func part(_ id: String, keepingDashes: Bool) -> String {
        let hashSuffixBytes = 17  // `~` and 16 hex digits
        var written: [UInt8] = []
        var prefixLength: Int?
        var hasUpperCase = false
        for (index, byte) in id.utf8.enumerated() {
            let isKept: Bool
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
                isKept = true
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                isKept = true
                hasUpperCase = true
            case UInt8(ascii: "."): isKept = index > 0
            case UInt8(ascii: "-"): isKept = keepingDashes
            default: isKept = false
            }
            if prefixLength == nil, written.count + (isKept ? 1 : 3) > maxPartBytes - hashSuffixBytes {
                prefixLength = written.count
            }
            if isKept {
                written.append(byte)
            } else {
                written += [UInt8(ascii: "%"), hexDigit(byte >> 4), hexDigit(byte & 0x0F)]
            }
        }
        guard hasUpperCase || written.count > maxPartBytes else { return String(decoding: written, as: UTF8.self) }
        let hash = String(fnv1a(id.utf8), radix: 16)
        return String(decoding: written.prefix(prefixLength ?? written.count), as: UTF8.self) + "~"
            + String(repeating: "0", count: 16 - hash.count) + hash
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }

    private static func fnv1a(_ bytes: String.UTF8View) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
