import StoreKitCore
import StoreKitSystem

/// Where a replay host shows the step each of its workers is replaying, so that `replay-cli` can name the step of
/// a reducer that crashes or hangs without the host sending a line per step.
///
/// The board is a small file that `replay-cli` creates (zero-filled) and names in the request (`progress`): one
/// slot of ``slotSize`` bytes per worker. The host maps the file into its memory, shared, and before each step writes
/// the worker's slot with plain stores: no system call, no signal handler. The stores are in the kernel's page cache
/// as soon as they are made, so when the host crashes (a trap, a segmentation fault, an abort, a kill) or is stopped
/// after hanging, the file still holds the step each worker was at, and `replay-cli` reads it then; while the host
/// runs, it reads the board to see that the host is still moving and to show progress.
///
/// A slot holds one line of ASCII text, `<session> <step> <action name>\n`, the rest of the slot zero: `session` is the
/// index of the session in the request's list (0 for a session on standard input), `step` the sequence number of the
/// action being replayed, or 0 with an empty name when the worker has taken the session and not reached its first
/// step. An action name longer than the slot holds is cut to fit.
public enum ProgressBoard {
    /// The bytes of one worker's slot.
    public static let slotSize = 512

    /// What one slot says.
    public struct Entry: Sendable, Equatable {
        /// The index of the session the worker is replaying, in the request's list.
        public var session: Int
        /// The sequence number of the action being replayed; 0 before the first.
        public var step: Int
        /// The action's display name; empty before the first step.
        public var name: String

        /// Creates one.
        public init(session: Int, step: Int, name: String) {
            self.session = session
            self.step = step
            self.name = name
        }
    }

    /// The slots of a board read as bytes: an entry for each written slot, `nil` for one never written (or not
    /// readable as an entry).
    public static func entries(in bytes: [UInt8]) -> [Entry?] {
        stride(from: 0, to: bytes.count, by: slotSize).map { start in
            let slot = bytes[start..<min(start + slotSize, bytes.count)]
            guard let newline = slot.firstIndex(of: 0x0A) else { return nil }
            let fields = slot[slot.startIndex..<newline].split(separator: 0x20, maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count >= 2, let session = Int(String(decoding: fields[0], as: UTF8.self)),
                let step = Int(String(decoding: fields[1], as: UTF8.self))
            else { return nil }
            return Entry(session: session, step: step, name: fields.count > 2 ? String(decoding: fields[2], as: UTF8.self) : "")
        }
    }

    /// The host's side: the board mapped into memory, each slot written by one worker.
    final class Writer: @unchecked Sendable {
        private let address: UnsafeMutableRawPointer
        private let length: Int

        /// Maps the board at `path`, which must hold at least `slots` slots.
        /// - Throws: A description of what is wrong when the file cannot be opened, is too small, or cannot be mapped.
        init(path: String, slots: Int) throws(SystemError) {
            let fd = try Syscall.open(path, O_RDWR)
            defer { try? Syscall.close(fd, subject: path) }
            let size = Int(try Syscall.status(of: fd, subject: path).size)
            guard slots > 0, size >= slots * ProgressBoard.slotSize else {
                throw SystemError(call: "mmap", subject: "\(path) (\(size) bytes; \(slots) slots need \(slots * ProgressBoard.slotSize))", errno: EINVAL)
            }
            self.length = slots * ProgressBoard.slotSize
            self.address = try Syscall.mapShared(fd, length: length, subject: path)
        }

        deinit { try? Syscall.unmap(address, length: length) }

        /// Writes `slot`: the worker is at `step` (0 before the first) of session `session`, an action named `name`.
        /// Runs before every step of a replay, so it copies the name's bytes in one go when it can.
        func write(slot: Int, session: Int, step: Int, name: String) {
            let start = address + slot * ProgressBoard.slotSize
            var cursor = Self.put(session, at: start)
            cursor.storeBytes(of: 0x20, as: UInt8.self)
            cursor = Self.put(step, at: cursor + 1)
            cursor.storeBytes(of: 0x20, as: UInt8.self)
            cursor += 1
            let room = ProgressBoard.slotSize - (cursor - start) - 1
            let copied = name.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
                let count = min(bytes.count, room)
                guard count > 0 else { return 0 }
                guard let base = bytes.baseAddress, memchr(base, 0x0A, count) == nil else { return nil }
                cursor.copyMemory(from: base, byteCount: count)
                return count
            }
            if let copied = copied ?? nil {
                cursor += copied
            } else {
                // A name with a line feed (or without contiguous bytes): byte by byte, without the line feeds.
                for byte in name.utf8.prefix(room) where byte != 0x0A {
                    cursor.storeBytes(of: byte, as: UInt8.self)
                    cursor += 1
                }
            }
            cursor.storeBytes(of: 0x0A, as: UInt8.self)
        }

        /// Writes the decimal digits of `number` (0 for a negative one) at `cursor`; returns the position after them.
        private static func put(_ number: Int, at cursor: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
            var rest = max(0, number)
            var length = 1
            var scale = rest
            while scale >= 10 {
                scale /= 10
                length += 1
            }
            var position = cursor + length
            repeat {
                position -= 1
                position.storeBytes(of: 0x30 + UInt8(rest % 10), as: UInt8.self)
                rest /= 10
            } while rest > 0
            return cursor + length
        }
    }
}
